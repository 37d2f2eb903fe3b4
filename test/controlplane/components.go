package main

import (
	"os"
	"time"
	_ "time/tzdata" // CronJob time zones, as upstream kube-controller-manager's main does

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // JSON log format, as upstream main does
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics, as upstream main does
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric, as upstream main does
	apiserverapp "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanagerapp "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	schedulerapp "k8s.io/kubernetes/cmd/kube-scheduler/app"
)

// watchParent exits this process when its parent (the `up` supervisor) goes away. The
// supervisor also sets Pdeathsig=SIGKILL; this covers the window before prctl ran and any case
// where the death signal is lost (Pdeathsig is tied to the forking OS thread).
func watchParent() {
	ppid := os.Getppid()
	if ppid <= 1 {
		// Started directly under init (or a subreaper): nothing meaningful to watch.
		return
	}
	go func() {
		for {
			time.Sleep(500 * time.Millisecond)
			if os.Getppid() != ppid {
				os.Exit(3)
			}
		}
	}()
}

// runComponent runs an upstream component command exactly as its upstream main() does.
// argv[0] is the subcommand name; cobra reads os.Args[1:].
func runComponent(argv []string, newCommand func() *cobra.Command) int {
	if os.Getenv("CONTROLPLANE_SUPERVISED") == "1" {
		watchParent()
	}
	os.Args = argv
	command := newCommand()
	return cli.Run(command)
}

func runAPIServer(argv []string) int {
	return runComponent(argv, apiserverapp.NewAPIServerCommand)
}

func runScheduler(argv []string) int {
	return runComponent(argv, func() *cobra.Command { return schedulerapp.NewSchedulerCommand() })
}

func runControllerManager(argv []string) int {
	return runComponent(argv, controllermanagerapp.NewControllerManagerCommand)
}
