package main

import (
	"os"

	_ "k8s.io/client-go/plugin/pkg/client/auth" // client auth plugins, as upstream kubectl does
	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	kubectlcmd "k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

// runKubectl mirrors kubernetes cmd/kubectl/kubectl.go. argv[0] is the program name as kubectl
// should see it; NewDefaultKubectlCommand reads os.Args (plugin lookup) and cobra reads
// os.Args[1:], so os.Args is replaced before the command is built.
func runKubectl(argv []string) int {
	argv = append([]string{"kubectl"}, argv[1:]...)
	os.Args = argv
	logs.GlogSetter(kubectlcmd.GetLogVerbosity(os.Args)) // nolint:errcheck
	command := kubectlcmd.NewDefaultKubectlCommand()
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err) // prints the error and exits non-zero
	}
	return 0
}
