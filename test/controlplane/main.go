// Command controlplane is a test-only Kubernetes control plane for kubectl-evtimeline, built
// from the upstream Go modules pinned in go.mod (k8s.io/kubernetes v1.36.3, etcd v3.6).
//
// It is one multi-call binary:
//
//	controlplane up [flags]               supervisor: etcd (in-process) + kube-apiserver + kube-scheduler
//	                                      + kube-controller-manager, and a heartbeat per node (nodeagent.go)
//	controlplane kube-apiserver <flags>   upstream kube-apiserver (started by `up`)
//	controlplane kube-scheduler <flags>   upstream kube-scheduler (started by `up`)
//	controlplane kube-controller-manager <flags>  upstream kube-controller-manager (started by `up`)
//	controlplane node --dir DIR ...       stop/start a node's heartbeat, add a node (control.go)
//	controlplane kubelet-node [flags]     a real node: containerd + kubelet + runc (kubeletnode.go)
//	controlplane kubelet <flags>          upstream kubelet (started by kubelet-node)
//	controlplane emit [flags]             write events through client-go's recorders (emit.go)
//	controlplane kubectl <args>           upstream kubectl of the same version
//	controlplane version                  prints the pinned versions as JSON
//
// When the basename of argv[0] is "kubectl" the binary behaves as kubectl.
//
// kube-apiserver, kube-scheduler and kube-controller-manager each install a once-only process signal handler
// (k8s.io/apiserver/pkg/server.SetupSignalHandler panics when called twice), so they run as
// separate processes: `up` re-executes its own binary with the component's subcommand.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func usage() {
	fmt.Fprintf(os.Stderr, `usage:
  controlplane up [--dir DIR] [--event-ttl 1h] [--etcd-compaction-interval 5m] [--kubeconfig-out PATH] [--exit-on-stdin-eof]
                  [--nodes 1] [--heartbeat-interval 10s] [--pod-status=true] [--node-monitor-grace-period 50s]
                  [--node-monitor-period 5s] [--default-not-ready-toleration-seconds 300]
                  [--default-unreachable-toleration-seconds 300]   (controlplane up -h: all flags)
  controlplane node (--dir DIR | --socket PATH) list | add NAME | stop NAME | start NAME
  controlplane emit --kubeconfig PATH --kind KIND --name NAME [--namespace NS] --reason R --message M ...
                                         (controlplane emit -h: all flags)
  controlplane kubelet-node --dir DIR --kubeconfig PATH --client-ca PATH --containerd-dir DIR --cni-dir DIR
                           --pod-tools PATH [--name node-k] [--max-restart-period 5s] [--exit-on-stdin-eof]
  controlplane kubectl ARGS...
  controlplane kube-apiserver FLAGS...   (internal: started by up)
  controlplane kube-scheduler FLAGS...   (internal: started by up)
  controlplane kube-controller-manager FLAGS...   (internal: started by up)
  controlplane kubelet FLAGS...          (internal: started by kubelet-node)
  controlplane version
`)
}

func main() {
	base := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	if base == "kubectl" {
		os.Exit(runKubectl(os.Args))
	}
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	sub := os.Args[1]
	// What the subcommand sees as its own argv: argv[0] is the subcommand name, so cobra's
	// command.Execute() (which reads os.Args[1:]) gets exactly the subcommand's arguments.
	shifted := append([]string{sub}, os.Args[2:]...)
	switch sub {
	case "up":
		os.Exit(runUp(os.Args[2:]))
	case "kube-apiserver":
		os.Exit(runAPIServer(shifted))
	case "kube-scheduler":
		os.Exit(runScheduler(shifted))
	case "kube-controller-manager":
		os.Exit(runControllerManager(shifted))
	case "node":
		os.Exit(runNode(os.Args[2:]))
	case "kubelet-node":
		os.Exit(runKubeletNode(os.Args[2:]))
	case "kubelet":
		os.Exit(runKubelet(shifted))
	case "emit":
		os.Exit(runEmit(os.Args[2:]))
	case "kubectl":
		os.Exit(runKubectl(shifted))
	case "jsonpath":
		os.Exit(runJSONPath(os.Args[2:]))
	case "version", "--version":
		fmt.Printf("{\"kubernetes\":%q,\"etcd\":%q,\"go\":%q}\n", kubernetesVersion(), etcdVersion(), goVersion())
		os.Exit(0)
	case "-h", "--help", "help":
		usage()
		os.Exit(0)
	default:
		fmt.Fprintf(os.Stderr, "controlplane: unknown subcommand %q\n", sub)
		usage()
		os.Exit(2)
	}
}
