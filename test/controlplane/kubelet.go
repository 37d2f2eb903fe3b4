package main

import (
	"context"

	"github.com/spf13/cobra"
	kubeletapp "k8s.io/kubernetes/cmd/kubelet/app"
)

// runKubelet runs upstream's kubelet (cmd/kubelet/kubelet.go) for the real node (node.go).
func runKubelet(argv []string) int {
	return runComponent(argv, func() *cobra.Command { return kubeletapp.NewKubeletCommand(context.Background()) })
}
