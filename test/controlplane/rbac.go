package main

import (
	"context"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/clusterroleaggregation"
)

// startClusterRoleAggregation runs kube-controller-manager's ClusterRole aggregation controller
// inside the supervisor, until it stops. There is no controller-manager here, and without this
// one the bootstrap roles admin, edit and view have no rules at all (an aggregationRule and
// `rules: null`: their rules live in the system:aggregate-to-* roles), so a test's
// `kubectl create rolebinding --clusterrole=view` would grant nothing.
func (s *supervisor) startClusterRoleAggregation(cfg *rest.Config) error {
	// Its informer watches: no overall request timeout (the start-up client has one).
	cfg = rest.CopyConfig(cfg)
	cfg.Timeout = 0
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	if s.upLog != nil {
		// The controller and its informer log through klog: to up.log, not to our stderr.
		klog.LogToStderr(false)
		klog.SetOutput(s.upLog)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-s.stop
		cancel()
	}()
	factory := informers.NewSharedInformerFactory(client, 0)
	controller := clusterroleaggregation.NewClusterRoleAggregation(factory.Rbac().V1().ClusterRoles(), client.RbacV1())
	factory.Start(ctx.Done())
	go controller.Run(ctx, 1)
	return nil
}

// viewAggregated reports whether ClusterRole view has received its rules (those of
// system:aggregate-to-view, which let it read events).
func viewAggregated(ctx context.Context, client kubernetes.Interface) (bool, error) {
	role, err := client.RbacV1().ClusterRoles().Get(ctx, "view", metav1.GetOptions{})
	if err != nil {
		return false, err
	}
	for _, rule := range role.Rules {
		if slices.Contains(rule.Resources, "events") && slices.Contains(rule.Verbs, "list") {
			return true, nil
		}
	}
	return false, nil
}
