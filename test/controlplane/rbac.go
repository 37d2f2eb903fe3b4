package main

import (
	"context"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// viewAggregated reports whether ClusterRole view has received its rules (those of
// system:aggregate-to-view, which let it read events): kube-controller-manager's
// clusterrole-aggregation controller at work. Without it the bootstrap roles admin, edit and view
// have an aggregationRule and `rules: null`, so `kubectl create rolebinding --clusterrole=view`
// would grant nothing.
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
