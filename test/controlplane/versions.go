package main

import (
	"runtime"
	"runtime/debug"
)

// moduleVersion returns the version of a dependency module as recorded in the binary.
func moduleVersion(path string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, dep := range info.Deps {
		if dep.Path == path {
			if dep.Replace != nil {
				return dep.Replace.Version
			}
			return dep.Version
		}
	}
	return "unknown"
}

func kubernetesVersion() string { return moduleVersion("k8s.io/kubernetes") }
func etcdVersion() string       { return moduleVersion("go.etcd.io/etcd/server/v3") }
func goVersion() string         { return runtime.Version() }
