package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/component-helpers/apimachinery/lease"
	"k8s.io/utils/clock"
)

// A node agent stands in for the kubelet of one Node, and only for what the control plane can
// see of a kubelet: the node's heartbeat and the status of the pods bound to it. It runs no
// container. Its heartbeat can be stopped and restarted while the cluster runs, so a test can
// stage a node failure that the real node lifecycle and taint eviction controllers react to.
//
//   - Lease kube-node-lease/<node>: renewed by component-helpers' lease controller, the very code
//     the kubelet runs (k8s.io/kubernetes pkg/kubelet/kubelet.go builds it with
//     NodeLeaseDurationSeconds 40 and renews every 40 s * 0.25 = 10 s).
//   - Ready condition: posted through the status subresource when it is not True and otherwise
//     every nodeStatusReportFrequency (5 min, the kubelet's default), as the kubelet does since
//     leases carry the heartbeat (KEP 589).
//   - Pods bound to the node (when podStatus is on): reported Running and Ready, and a pod being
//     deleted is removed with grace period 0 once "its containers stopped", as the kubelet's
//     status manager does. Without a Ready condition the node lifecycle controller writes no
//     NodeNotReady event about a pod (pkg/controller/util/node/controller_utils.go
//     MarkPodsNotReady only touches pods that have one), and a pod bound to a node is never
//     finished deleting, so a namespace holding one would stay Terminating.
//
// With the heartbeat stopped nothing of the above happens: the node lifecycle controller marks
// the node Unknown after --node-monitor-grace-period, taints it, and the taint eviction
// controller evicts its pods after their toleration seconds; evicted pods stay Terminating until
// the heartbeat comes back, as with a real unreachable node.

const (
	nodeLeaseDurationSeconds  = 40
	nodeStatusReportFrequency = 5 * time.Minute
)

type nodeAgent struct {
	name        string
	client      kubernetes.Interface // requests with a timeout
	watchClient kubernetes.Interface // for the pod informer's watch
	interval    time.Duration
	podStatus   bool
	logf        func(format string, a ...any)

	mu        sync.Mutex
	beating   bool
	cancel    context.CancelFunc // stops the current heartbeat
	lastPost  time.Time
	podQueue  chan string // pod keys "ns/name" to reconcile
	podLister func() []*corev1.Pod
}

// nodeState is what the control surface reports about a node agent.
type nodeState struct {
	Name      string `json:"name"`
	Heartbeat bool   `json:"heartbeat"`
	PodStatus bool   `json:"podStatus"`
}

func (a *nodeAgent) state() nodeState {
	a.mu.Lock()
	defer a.mu.Unlock()
	return nodeState{Name: a.name, Heartbeat: a.beating, PodStatus: a.podStatus}
}

func nodeResources() corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("2"),
		corev1.ResourceMemory: resource.MustParse("8Gi"),
		corev1.ResourcePods:   resource.MustParse("110"),
	}
}

// newNode is the Node a kubelet would register: labels, capacity and addresses; the kubelet
// posts its status right after.
func newNode(name string) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: name,
			Labels: map[string]string{
				"kubernetes.io/hostname": name,
				"kubernetes.io/os":       "linux",
				"kubernetes.io/arch":     runtime.GOARCH,
			},
		},
		Status: corev1.NodeStatus{
			Capacity:    nodeResources(),
			Allocatable: nodeResources(),
			Addresses:   []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "127.0.0.1"}, {Type: corev1.NodeHostName, Address: name}},
			NodeInfo: corev1.NodeSystemInfo{
				KubeletVersion:  kubernetesVersion(),
				OperatingSystem: "linux",
				Architecture:    runtime.GOARCH,
			},
		},
	}
}

// register creates the Node (or takes the existing one) and starts its heartbeat.
func (a *nodeAgent) register(ctx context.Context, stop <-chan struct{}) error {
	_, err := a.client.CoreV1().Nodes().Create(ctx, newNode(a.name), metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("register node %s: %w", a.name, err)
	}
	if err := a.postStatus(ctx); err != nil {
		return err
	}
	if a.podStatus {
		a.startPods(stop)
	}
	a.startHeartbeat()
	return nil
}

// setHeartbeat starts or stops the heartbeat; true when it changed anything.
func (a *nodeAgent) setHeartbeat(on bool) bool {
	if on {
		return a.startHeartbeat()
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.beating {
		return false
	}
	a.beating = false
	a.cancel()
	a.logf("node %s: heartbeat stopped", a.name)
	return true
}

func (a *nodeAgent) startHeartbeat() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.beating {
		return false
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.beating, a.cancel = true, cancel
	leases := lease.NewController(clock.RealClock{}, a.client, a.name, nodeLeaseDurationSeconds, nil,
		a.interval, a.name, corev1.NamespaceNodeLease, setNodeOwner(ctx, a.client, a.name))
	go leases.Run(ctx)
	go a.statusLoop(ctx)
	a.logf("node %s: heartbeat started (every %s)", a.name, a.interval)
	return true
}

// setNodeOwner makes the Node the owner of its Lease, as the kubelet does
// (pkg/kubelet/util/nodelease.go SetNodeOwnerFunc), so deleting the Node deletes the Lease.
func setNodeOwner(ctx context.Context, client kubernetes.Interface, name string) lease.ProcessLeaseFunc {
	return func(l *coordinationv1.Lease) error {
		if len(l.OwnerReferences) > 0 {
			return nil
		}
		node, err := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		l.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: name, UID: node.UID}}
		return nil
	}
}

func (a *nodeAgent) statusLoop(ctx context.Context) {
	first := true // a (re)started heartbeat posts Ready at once
	for {
		if err := a.postStatusIfDue(ctx, first); err == nil {
			first = false
		} else if ctx.Err() == nil {
			a.logf("node %s: post status: %v", a.name, err)
		}
		a.resyncPods()
		select {
		case <-ctx.Done():
			return
		case <-time.After(a.interval):
		}
	}
}

func readyCondition(n *corev1.Node) *corev1.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == corev1.NodeReady {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

// postStatusIfDue posts the node's status when Ready is not True (a restarted heartbeat heals
// the node at once) or when nodeStatusReportFrequency has passed.
func (a *nodeAgent) postStatusIfDue(ctx context.Context, force bool) error {
	n, err := a.client.CoreV1().Nodes().Get(ctx, a.name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	ready := readyCondition(n)
	a.mu.Lock()
	due := time.Since(a.lastPost) >= nodeStatusReportFrequency
	a.mu.Unlock()
	if !force && !due && ready != nil && ready.Status == corev1.ConditionTrue {
		return nil
	}
	return a.postStatus(ctx)
}

// postStatus writes capacity, allocatable and a fresh Ready=True condition through /status.
func (a *nodeAgent) postStatus(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		n, err := a.client.CoreV1().Nodes().Get(ctx, a.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		want := newNode(a.name).Status
		n.Status.Capacity, n.Status.Allocatable = want.Capacity, want.Allocatable
		n.Status.Addresses, n.Status.NodeInfo = want.Addresses, want.NodeInfo
		cond := readyCondition(n)
		if cond == nil {
			n.Status.Conditions = append(n.Status.Conditions, corev1.NodeCondition{Type: corev1.NodeReady})
			cond = &n.Status.Conditions[len(n.Status.Conditions)-1]
		}
		if cond.Status != corev1.ConditionTrue {
			cond.LastTransitionTime = now
		}
		cond.Status = corev1.ConditionTrue
		cond.Reason = "KubeletReady"
		cond.Message = "kubelet is posting ready status (evtimeline test node: no containers run)"
		cond.LastHeartbeatTime = now
		_, err = a.client.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) && attempt < 5 {
			continue
		}
		if err == nil {
			a.mu.Lock()
			a.lastPost = time.Now()
			a.mu.Unlock()
		}
		return err
	}
}

// startPods watches the pods bound to this node (field selector spec.nodeName, as the kubelet
// does) and reconciles each while the heartbeat runs.
func (a *nodeAgent) startPods(stop <-chan struct{}) {
	factory := informers.NewSharedInformerFactoryWithOptions(a.watchClient, 0,
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("spec.nodeName", a.name).String()
		}))
	informer := factory.Core().V1().Pods()
	a.podQueue = make(chan string, 4096)
	enqueue := func(obj any) {
		if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
			select {
			case a.podQueue <- key:
			default: // full: the next resync catches up
			}
		}
	}
	_, _ = informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
	})
	lister := informer.Lister()
	a.podLister = func() []*corev1.Pod {
		pods, _ := lister.List(labels.Everything())
		return pods
	}
	factory.Start(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case key := <-a.podQueue:
				ns, name, _ := cache.SplitMetaNamespaceKey(key)
				pod, err := lister.Pods(ns).Get(name)
				if err != nil {
					continue
				}
				if err := a.syncPod(pod); err != nil {
					a.logf("node %s: pod %s: %v", a.name, key, err)
				}
			}
		}
	}()
}

// resyncPods queues every pod of the node again (after a heartbeat restart, pods that changed
// while the node was down are reconciled).
func (a *nodeAgent) resyncPods() {
	if a.podLister == nil {
		return
	}
	for _, p := range a.podLister() {
		select {
		case a.podQueue <- p.Namespace + "/" + p.Name:
		default:
		}
	}
}

// syncPod reports a pod Running and Ready, or finishes its deletion: what the kubelet writes
// once its containers run or have stopped. Nothing while the heartbeat is stopped.
func (a *nodeAgent) syncPod(pod *corev1.Pod) error {
	if !a.state().Heartbeat {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pods := a.client.CoreV1().Pods(pod.Namespace)
	if pod.DeletionTimestamp != nil {
		// The kubelet's status manager deletes with grace period 0 and a UID precondition once
		// the containers are gone (pkg/kubelet/status/status_manager.go).
		err := pods.Delete(ctx, pod.Name, metav1.DeleteOptions{
			GracePeriodSeconds: ptrInt64(0),
			Preconditions:      metav1.NewUIDPreconditions(string(pod.UID)),
		})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil
		}
		return err
	}
	if pod.Status.Phase != corev1.PodPending {
		return nil
	}
	status := runningStatus(pod)
	updated := pod.DeepCopy()
	updated.Status = status
	_, err := pods.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil // gone, or changed meanwhile: the informer brings it back
	}
	return err
}

func ptrInt64(v int64) *int64 { return &v }

// runningStatus is the status a kubelet reports once every container of the pod started.
func runningStatus(pod *corev1.Pod) corev1.PodStatus {
	now := metav1.Now()
	status := *pod.Status.DeepCopy()
	status.Phase = corev1.PodRunning
	status.HostIP = "127.0.0.1"
	status.HostIPs = []corev1.HostIP{{IP: "127.0.0.1"}}
	status.StartTime = &now
	conditions := []corev1.PodCondition{}
	for _, c := range status.Conditions {
		if c.Type == corev1.PodScheduled {
			conditions = append(conditions, c)
		}
	}
	for _, t := range []corev1.PodConditionType{corev1.PodReadyToStartContainers, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady} {
		conditions = append(conditions, corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: now})
	}
	status.Conditions = conditions
	status.InitContainerStatuses = nil
	for _, c := range pod.Spec.InitContainers {
		status.InitContainerStatuses = append(status.InitContainerStatuses, corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, Ready: true,
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: now, FinishedAt: now}},
		})
	}
	status.ContainerStatuses = nil
	started := true
	for _, c := range pod.Spec.Containers {
		status.ContainerStatuses = append(status.ContainerStatuses, corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, Ready: true, Started: &started,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
		})
	}
	return status
}
