package main

// `controlplane kubelet-node`: one real node (kubelet + containerd + runc + CNI bridge) beside the
// control plane's heartbeat-only nodes. It is a supervisor: it claims a slot (kubeletnode_host.go),
// builds its images (kubeletnode_images.go), writes the configurations (kubeletnode_config.go), starts
// containerd and the kubelet, prints one JSON line when the Node is Ready, and tears everything down
// when it is told to stop (SIGTERM/SIGINT/SIGHUP, stdin EOF with --exit-on-stdin-eof, or its parent
// gone: the ppid watch of up.go), leaving no process, mount, cgroup, bridge or sysctl change behind.
//
// It always runs in a private mount namespace (it re-executes itself through `unshare --mount
// --propagation private`, keeping its pid): every mount the node makes, the sysctl files bound over
// /proc/sys, and the folders bound over the fixed paths the kubelet and containerd insist on
// (/var/lib/kubelet, /var/log/pods, ...) exist only in that namespace and vanish with it.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

const nodeNamespaceEnv = "EVTIMELINE_KUBELET_NODE_NS"

type kubeletNodeOptions struct {
	dir              string
	kubeconfig       string
	clientCA         string
	name             string
	containerdDir    string // containerd, ctr, containerd-shim-runc-v2
	cniDir           string // bridge, host-local, loopback
	podTools         string // static pause/hog binary (test/controlplane/podtools)
	maxRestartPeriod time.Duration
	exitOnStdinEOF   bool
	verbose          bool
}

type kubeletNodeReady struct {
	Ready             bool     `json:"ready"`
	Error             string   `json:"error,omitempty"`
	Name              string   `json:"name,omitempty"`
	Dir               string   `json:"dir,omitempty"`
	Pid               int      `json:"pid"`
	KubeletPid        int      `json:"kubeletPid,omitempty"`
	ContainerdPid     int      `json:"containerdPid,omitempty"`
	Slot              int      `json:"slot"`
	Bridge            string   `json:"bridge,omitempty"`
	PodCIDR           string   `json:"podCIDR,omitempty"`
	CgroupRoot        string   `json:"cgroupRoot,omitempty"`
	NodeIP            string   `json:"nodeIP,omitempty"`
	KubeletPort       int      `json:"kubeletPort,omitempty"`
	Taint             string   `json:"taint,omitempty"`
	Images            []string `json:"images,omitempty"`
	PodLogsDir        string   `json:"podLogsDir,omitempty"`
	MaxRestartPeriod  string   `json:"maxRestartPeriod,omitempty"`
	StartupSeconds    float64  `json:"startupSeconds"`
	KubeletVersion    string   `json:"kubeletVersion,omitempty"`
	ContainerdVersion string   `json:"containerdVersion,omitempty"`
}

type kubeletNode struct {
	o       kubeletNodeOptions
	client  kubernetes.Interface
	start   time.Time
	log     *os.File
	slot    *nodeSlot
	host    *hostChanges
	ctrd    *exec.Cmd
	kubelet *exec.Cmd
	exited  map[*exec.Cmd]chan struct{}
	stop    chan string
}

func runKubeletNode(args []string) int {
	fs := flag.NewFlagSet("kubelet-node", flag.ContinueOnError)
	var o kubeletNodeOptions
	fs.StringVar(&o.dir, "dir", "", "state folder of this node (created; removed on exit except its logs)")
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "admin kubeconfig of the control plane (up writes <dir>/kubeconfig)")
	fs.StringVar(&o.clientCA, "client-ca", "", "CA whose client certificates the kubelet accepts (up's <dir>/client-ca.crt: the apiserver's --kubelet-client-certificate)")
	fs.StringVar(&o.name, "name", "node-k", "Node name")
	fs.StringVar(&o.containerdDir, "containerd-dir", "", "folder holding containerd, ctr and containerd-shim-runc-v2")
	fs.StringVar(&o.cniDir, "cni-dir", "", "folder holding the bridge, host-local and loopback CNI plugins")
	fs.StringVar(&o.podTools, "pod-tools", "", "static binary that is /pause in the pause image and /bin/hog in the busybox image")
	fs.DurationVar(&o.maxRestartPeriod, "max-restart-period", 5*time.Second, "KubeletConfiguration crashLoopBackOff.maxContainerRestartPeriod")
	fs.BoolVar(&o.exitOnStdinEOF, "exit-on-stdin-eof", false, "tear down when stdin reaches EOF")
	fs.BoolVar(&o.verbose, "v", false, "also print progress to stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for flagName, v := range map[string]string{"dir": o.dir, "kubeconfig": o.kubeconfig, "client-ca": o.clientCA, "containerd-dir": o.containerdDir, "cni-dir": o.cniDir, "pod-tools": o.podTools} {
		if v == "" {
			fmt.Fprintf(os.Stderr, "controlplane kubelet-node: --%s is required\n", flagName)
			return 2
		}
	}
	if missing := nodePrerequisites(); missing != "" {
		fmt.Fprintf(os.Stderr, "controlplane kubelet-node: %s\n", missing)
		return 1
	}
	if os.Getenv(nodeNamespaceEnv) != "1" {
		return reexecInPrivateMountNamespace()
	}
	n := &kubeletNode{o: o, start: time.Now(), exited: map[*exec.Cmd]chan struct{}{}, stop: make(chan string, 8)}
	return n.run()
}

// reexecInPrivateMountNamespace replaces this process (same pid, so a parent's handle and ppid
// watches stay valid) with itself inside a new mount namespace whose mounts do not propagate to the
// host (util-linux unshare; Go cannot unshare CLONE_NEWNS in a running multi-threaded process).
func reexecInPrivateMountNamespace() int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "controlplane kubelet-node: %v\n", err)
		return 1
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		fmt.Fprintln(os.Stderr, "controlplane kubelet-node: unshare (util-linux) is not on PATH: apt-get install util-linux")
		return 1
	}
	argv := append([]string{"unshare", "--mount", "--propagation", "private", "--", self}, os.Args[1:]...)
	err = syscall.Exec(unshare, argv, append(os.Environ(), nodeNamespaceEnv+"=1"))
	fmt.Fprintf(os.Stderr, "controlplane kubelet-node: exec unshare: %v\n", err)
	return 1
}

func (n *kubeletNode) logf(format string, a ...any) {
	msg := fmt.Sprintf("%s kubelet-node: %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, a...))
	if n.log != nil {
		_, _ = n.log.WriteString(msg)
	}
	if n.o.verbose {
		_, _ = os.Stderr.WriteString(msg)
	}
}

func (n *kubeletNode) requestStop(reason string) {
	select {
	case n.stop <- reason:
	default:
	}
}

func (n *kubeletNode) watchTriggers() {
	sigCh := make(chan os.Signal, 4)
	signal.Notify(sigCh, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	go func() {
		for sig := range sigCh {
			n.requestStop("signal " + sig.String())
		}
	}()
	if ppid := os.Getppid(); ppid > 1 {
		go func() {
			for {
				time.Sleep(500 * time.Millisecond)
				if os.Getppid() != ppid {
					n.requestStop("parent process exited")
					return
				}
			}
		}()
	}
	if n.o.exitOnStdinEOF {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			n.requestStop("stdin closed")
		}()
	}
}

func (n *kubeletNode) stopping() (string, bool) {
	select {
	case r := <-n.stop:
		n.stop <- r
		return r, true
	default:
		return "", false
	}
}

func (n *kubeletNode) run() int {
	n.watchTriggers()
	// Orphans (the containerd shims once containerd is gone) are re-parented to this process, so
	// teardown finds and reaps them (prctl PR_SET_CHILD_SUBREAPER).
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, 36, 1, 0)
	ready, err := n.up()
	code := 0
	if err != nil {
		code = 1
		n.logf("start-up failed: %v", err)
		fmt.Fprintf(os.Stderr, "controlplane kubelet-node: %v\n", err)
		if n.o.dir != "" {
			for _, name := range []string{"containerd.log", "kubelet.log"} {
				p := filepath.Join(n.o.dir, name)
				if _, statErr := os.Stat(p); statErr == nil {
					fmt.Fprintf(os.Stderr, "----- last lines of %s -----\n%s\n", name, tailFile(p, 30, 8192))
				}
			}
		}
		line := kubeletNodeReady{Ready: false, Error: err.Error(), Pid: os.Getpid(), Dir: n.o.dir, StartupSeconds: time.Since(n.start).Seconds()}
		b, _ := json.Marshal(line)
		_, _ = os.Stdout.Write(append(b, '\n'))
	} else {
		b, _ := json.Marshal(ready)
		_, _ = os.Stdout.Write(append(b, '\n'))
		n.logf("ready in %.1fs", ready.StartupSeconds)
		reason := <-n.stop
		n.logf("stopping: %s", reason)
	}
	t := time.Now()
	n.teardown()
	n.logf("torn down in %.1fs", time.Since(t).Seconds())
	if n.log != nil {
		n.log.Close()
	}
	return code
}

func (n *kubeletNode) up() (*kubeletNodeReady, error) {
	dir, err := filepath.Abs(n.o.dir)
	if err != nil {
		return nil, err
	}
	n.o.dir = dir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if n.log, err = os.OpenFile(filepath.Join(dir, "node.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return nil, err
	}
	n.logf("state dir %s", dir)
	if n.slot, err = claimNodeSlot(); err != nil {
		return nil, err
	}
	n.logf("slot %d: bridge %s, pods %s, cgroup root %s", n.slot.index, n.slot.bridge, n.slot.podCIDR, n.slot.cgroupRoot)
	nodeIP, err := primaryIPv4()
	if err != nil {
		return nil, err
	}
	port, err := freeTCPPort(nodeIP)
	if err != nil {
		return nil, err
	}
	n.host = &hostChanges{dir: dir, logf: n.logf}
	if err := n.host.isolate(n.slot); err != nil {
		return nil, err
	}
	cfg := nodeConfig{
		dir: dir, name: n.o.name, nodeIP: nodeIP, port: port, slot: n.slot, clientCA: n.o.clientCA,
		cniDir: n.o.cniDir, maxRestartPeriod: n.o.maxRestartPeriod,
	}
	if err := cfg.write(); err != nil {
		return nil, err
	}
	images, err := writeNodeImages(filepath.Join(dir, "images"), n.o.podTools)
	if err != nil {
		return nil, fmt.Errorf("make images: %w", err)
	}
	n.logf("images written after %s", time.Since(n.start).Round(time.Millisecond))

	path := n.o.containerdDir + string(os.PathListSeparator) + os.Getenv("PATH")
	env := append(os.Environ(), "PATH="+path)
	if n.ctrd, err = n.startProcess("containerd", filepath.Join(n.o.containerdDir, "containerd"), []string{"--config", cfg.containerdConfig()}, env); err != nil {
		return nil, err
	}
	ctr := func(ctx context.Context, args ...string) ([]byte, error) {
		full := append([]string{"--address", cfg.containerdSocket(), "--namespace", "k8s.io"}, args...)
		return exec.CommandContext(ctx, filepath.Join(n.o.containerdDir, "ctr"), full...).CombinedOutput()
	}
	var ctrdVersion string
	if err := n.waitUntil("containerd to serve", 60*time.Second, func(ctx context.Context) (bool, error) {
		out, err := ctr(ctx, "version")
		if err != nil {
			return false, fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
		}
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "Version:" {
				ctrdVersion = f[1] // the server's (the second Version: line) wins
			}
		}
		return true, nil
	}); err != nil {
		return nil, err
	}
	n.logf("containerd %s serving after %s", ctrdVersion, time.Since(n.start).Round(time.Millisecond))
	for _, img := range images {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		out, err := ctr(ctx, "images", "import", "--no-unpack=false", img.archive)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("ctr images import %s: %v: %s", img.archive, err, strings.TrimSpace(string(out)))
		}
	}
	n.logf("images imported after %s", time.Since(n.start).Round(time.Millisecond))

	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	kubeletArgs := []string{
		"--config=" + cfg.kubeletConfig(),
		"--kubeconfig=" + n.o.kubeconfig,
		"--hostname-override=" + n.o.name,
		"--node-ip=" + nodeIP,
		"--root-dir=" + filepath.Join(dir, "kubelet"),
		"--cert-dir=" + filepath.Join(dir, "pki"),
		"--v=1",
	}
	if n.kubelet, err = n.startProcess("kubelet", self, append([]string{"kubelet"}, kubeletArgs...), append(env, "CONTROLPLANE_SUPERVISED=1")); err != nil {
		return nil, err
	}

	restCfg, err := clientcmd.BuildConfigFromFlags("", n.o.kubeconfig)
	if err != nil {
		return nil, err
	}
	restCfg.Timeout = 10 * time.Second
	client, err := kubernetes.NewForConfig(restCfg)
	if err != nil {
		return nil, err
	}
	n.client = client
	var kubeletVersion string
	if err := n.waitUntil("Node "+n.o.name+" Ready", 90*time.Second, func(ctx context.Context) (bool, error) {
		node, err := client.CoreV1().Nodes().Get(ctx, n.o.name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		kubeletVersion = node.Status.NodeInfo.KubeletVersion
		for _, c := range node.Status.Conditions {
			if c.Type == corev1.NodeReady {
				return c.Status == corev1.ConditionTrue, fmt.Errorf("Ready=%s: %s", c.Status, c.Message)
			}
		}
		return false, nil
	}); err != nil {
		return nil, err
	}
	var names []string
	for _, img := range images {
		names = append(names, img.ref)
	}
	return &kubeletNodeReady{
		Ready: true, Name: n.o.name, Dir: dir, Pid: os.Getpid(),
		KubeletPid: n.kubelet.Process.Pid, ContainerdPid: n.ctrd.Process.Pid,
		Slot: n.slot.index, Bridge: n.slot.bridge, PodCIDR: n.slot.podCIDR, CgroupRoot: n.slot.cgroupRoot,
		NodeIP: nodeIP, KubeletPort: port, Taint: realNodeTaint, Images: names,
		PodLogsDir: filepath.Join(dir, "fixed", "var-log-pods"), MaxRestartPeriod: n.o.maxRestartPeriod.String(),
		StartupSeconds: time.Since(n.start).Seconds(), KubeletVersion: kubeletVersion, ContainerdVersion: ctrdVersion,
	}, nil
}

// startProcess starts a child logging to <dir>/<name>.log. A child that dies stops the node.
func (n *kubeletNode) startProcess(name, path string, args, env []string) (*exec.Cmd, error) {
	logFile, err := os.OpenFile(filepath.Join(n.o.dir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr, cmd.Env, cmd.Dir = logFile, logFile, env, n.o.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	done := make(chan struct{})
	n.exited[cmd] = done
	go func() {
		err := cmd.Wait()
		close(done)
		n.logf("%s exited: %v", name, err)
		n.requestStop(fmt.Sprintf("%s exited (%v)", name, err))
	}()
	n.logf("started %s pid %d", name, cmd.Process.Pid)
	return cmd, nil
}

// waitUntil polls check every 200 ms until it is true, the timeout passes or a stop is asked.
func (n *kubeletNode) waitUntil(what string, timeout time.Duration, check func(ctx context.Context) (bool, error)) error {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		if reason, stop := n.stopping(); stop {
			return fmt.Errorf("waiting for %s: %s", what, reason)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ok, err := check(ctx)
		cancel()
		if ok {
			return nil
		}
		last = err
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %s waiting for %s (last: %v)", timeout, what, last)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stopProcess sends SIGTERM to the child's group and SIGKILL after grace.
func (n *kubeletNode) stopProcess(cmd *exec.Cmd, grace time.Duration) {
	if cmd == nil {
		return
	}
	done := n.exited[cmd]
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-done:
		return
	case <-time.After(grace):
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	<-done
}

// teardown: kubelet, then every process in the node's cgroups (the pods), then containerd, then
// any orphan (shims), then the cgroups, the bridge and the state folder. The mounts go with the
// mount namespace when this process exits.
func (n *kubeletNode) teardown() {
	n.stopProcess(n.kubelet, 5*time.Second)
	// A Node left behind would stay NotReady in a control plane that outlives this node (and change
	// the scheduler's "0/N nodes are available"). Best effort: the control plane may be gone already.
	if n.client != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := n.client.CoreV1().Nodes().Delete(ctx, n.o.name, metav1.DeleteOptions{}); err != nil {
			n.logf("delete Node %s: %v", n.o.name, err)
		}
		cancel()
	}
	if n.slot != nil {
		killCgroupProcesses(n.slot.cgroupRoot, n.logf)
	}
	n.stopProcess(n.ctrd, 5*time.Second)
	killOrphans(n.o.dir, n.logf)
	if n.slot != nil {
		removeCgroupTree(n.slot.cgroupRoot, n.logf)
		deleteBridge(n.slot.bridge, n.logf)
	}
	if n.host != nil {
		n.host.undo()
	}
	removeStateExceptLogs(n.o.dir, n.logf)
	if n.slot != nil {
		n.slot.release()
	}
}
