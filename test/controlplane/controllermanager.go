package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// The controllers kube-controller-manager runs here (names from
// k8s.io/kubernetes cmd/kube-controller-manager/names). Left out, and why:
//   - horizontal-pod-autoscaler: no metrics API is served, so it could only write
//     FailedGetResourceMetric events;
//   - the persistent volume controllers (binder, attach-detach, expander, pvc/pv protection,
//     ephemeral-volume) and volumeattributesclass-protection: no storage, no volume plugin;
//   - node-ipam: no pod network (--allocate-node-cidrs is off by default anyway);
//   - the certificate signing request controllers, bootstrap-signer, token-cleaner and
//     podcertificaterequest-cleaner: no kubelet asks for a certificate or joins with a token;
//   - resourceclaim, resourcepoolstatusrequest, device-taint-eviction, podgroup-protection:
//     dynamic resource allocation and gang scheduling, nothing here uses them;
//   - storageversion-garbage-collector, storage-version-migrator,
//     validatingadmissionpolicy-status, selinux-warning,
//     kube-apiserver-serving-clustertrustbundle-publisher, legacy-serviceaccount-token-cleaner,
//     service-cidr: cluster housekeeping that writes no event a test reads, at a cost in start-up
//     time and memory on a 2-core machine.
var controllers = []string{
	"deployment-controller",
	"replicaset-controller",
	"replicationcontroller-controller",
	"statefulset-controller",
	"daemonset-controller",
	"job-controller",
	"cronjob-controller",
	"garbage-collector-controller",
	"namespace-controller",
	"serviceaccount-controller",
	"serviceaccount-token-controller",
	"root-ca-certificate-publisher-controller",
	"endpoints-controller",
	"endpointslice-controller",
	"endpointslice-mirroring-controller",
	"node-lifecycle-controller",
	"taint-eviction-controller",
	"pod-garbage-collector-controller",
	"resourcequota-controller",
	"disruption-controller",
	"ttl-after-finished-controller",
	"ttl-controller",
	"clusterrole-aggregation-controller",
}

// controllerManagerUser is the user name RBAC's bootstrap policy expects for the
// controller-manager (ClusterRoleBinding system:kube-controller-manager).
const controllerManagerUser = "system:kube-controller-manager"

// startControllerManager runs upstream kube-controller-manager as a child, much as kubeadm does
// (cmd/kubeadm/app/phases/controlplane/manifests.go): its own kubeconfig and identity, the
// service-account signing key and the root CA for the tokens and the kube-root-ca.crt
// ConfigMaps. Leader election is off (one instance). Unlike kubeadm it does not run each
// controller as its own service account (--use-service-account-credentials): on a fresh cluster
// that costs one GET and one CREATE of a ServiceAccount per controller, one after another, about
// 2 s of start-up on a loaded 2-core machine, and changes nothing an event says (events name
// their reporter, not the user who wrote them). Acting for all controllers at once, its user is
// in group system:masters, as the bootstrap role system:kube-controller-manager alone grants
// only what the service-account mode needs.
func (s *supervisor) startControllerManager(admin *clientcmdapi.Config, p *pki) error {
	cfg := clientcmdapi.NewConfig()
	for name, cluster := range admin.Clusters {
		cfg.Clusters[name] = cluster
	}
	cfg.AuthInfos[controllerManagerUser] = &clientcmdapi.AuthInfo{Token: p.controllerManagerToken}
	cfg.Contexts[contextName] = &clientcmdapi.Context{Cluster: contextName, AuthInfo: controllerManagerUser}
	cfg.CurrentContext = contextName
	kubeconfig := filepath.Join(s.dir, "controller-manager.kubeconfig")
	if err := writeKubeconfig(kubeconfig, cfg); err != nil {
		return err
	}
	var err error
	s.controllerManager, err = s.startChild("kube-controller-manager", []string{
		"--kubeconfig=" + kubeconfig,
		"--leader-elect=false",
		"--secure-port=0",
		"--controllers=" + strings.Join(controllers, ","),
		"--use-service-account-credentials=false",
		"--service-account-private-key-file=" + p.saKey,
		"--root-ca-file=" + p.caFile,
		"--node-monitor-grace-period=" + s.opts.nodeMonitorGracePeriod.String(),
		"--node-monitor-period=" + s.opts.nodeMonitorPeriod.String(),
	})
	return err
}

// waitForControllers returns once the controllers the tests lean on are at work: ClusterRole
// view aggregated (clusterrole-aggregation), namespace default holding its `default`
// ServiceAccount (serviceaccount: without it the ServiceAccount admission plugin rejects pods)
// and every node Ready with no taint left (node-lifecycle removes the not-ready taint that
// TaintNodesByCondition put on the new Node; until then the scheduler reports the taint instead
// of the real reason a pod does not fit).
func (s *supervisor) waitForControllers(client kubernetes.Interface, nodes []string, deadline time.Time) error {
	if err := s.waitFor("ClusterRole view to be aggregated", deadline, func(ctx context.Context) (bool, error) {
		return viewAggregated(ctx, client)
	}); err != nil {
		return err
	}
	s.logf("ClusterRole view aggregated after %s", time.Since(s.start).Round(time.Millisecond))
	if err := s.waitFor("ServiceAccount default/default", deadline, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().ServiceAccounts(metav1.NamespaceDefault).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	}); err != nil {
		return err
	}
	s.logf("ServiceAccount default/default after %s", time.Since(s.start).Round(time.Millisecond))
	for _, name := range nodes {
		if err := s.waitFor("node "+name+" Ready and untainted", deadline, func(ctx context.Context) (bool, error) {
			n, err := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			ready := readyCondition(n)
			if ready == nil || ready.Status != corev1.ConditionTrue {
				return false, nil
			}
			if len(n.Spec.Taints) > 0 {
				return false, fmt.Errorf("node %s still has taints %v", name, taintKeys(n.Spec.Taints))
			}
			return true, nil
		}); err != nil {
			return err
		}
		s.logf("node %s Ready and untainted after %s", name, time.Since(s.start).Round(time.Millisecond))
	}
	return nil
}

func taintKeys(taints []corev1.Taint) []string {
	keys := make([]string, 0, len(taints))
	for _, t := range taints {
		keys = append(keys, t.Key+":"+string(t.Effect))
	}
	slices.Sort(keys)
	return keys
}
