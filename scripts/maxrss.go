// Command maxrss runs one command and prints, as JSON on stdout, its wall time, the CPU time it
// used (user and system) and the peak resident set size the kernel reports for it (wait4's
// ru_maxrss: across an exec, as when kubectl execs a plugin, the larger of the two images; the CPU
// times add up both). Node cannot read a child's rusage, hence this helper for the benchmarks.
// The command's own output is discarded.
//
//	maxrss COMMAND [ARG...]  ->  {"wallSeconds":0.052,"userSeconds":0.031,"sysSeconds":0.012,"maxRssKiB":45120,"exitCode":0}
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func seconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: maxrss COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	started := time.Now()
	err := cmd.Run()
	wall := time.Since(started)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(1)
	}
	usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "maxrss: no rusage on this platform")
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(map[string]any{
		"wallSeconds": wall.Seconds(),
		"userSeconds": seconds(usage.Utime),
		"sysSeconds":  seconds(usage.Stime),
		"maxRssKiB":   usage.Maxrss, // KiB on Linux
		"exitCode":    cmd.ProcessState.ExitCode(),
	})
}
