// Command podtools is the one static binary (CGO_ENABLED=0: no libc in the image, and no
// glibc-static package needed to build it) in the real node's images (../kubeletnode_images.go).
// What it does depends on the name it is run as:
//
//	pause      the sandbox's pause: exits 0 on SIGINT/SIGTERM, otherwise waits forever (its pid
//	           namespace's init; Go reaps no zombies, which the pods here never make)
//	hog N      allocates N MiB and touches every page, then sleeps: under a smaller memory limit
//	           the kernel's OOM killer ends it (OOMKilled, exit code 137)
package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

func main() {
	switch filepath.Base(os.Args[0]) {
	case "hog":
		os.Exit(hog(os.Args[1:]))
	default:
		pause()
	}
}

func pause() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	os.Exit(0)
}

var held [][]byte

func hog(args []string) int {
	mib := 100
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "usage: hog MiB (a whole number), not %q\n", args[0])
			return 2
		}
		mib = n
	}
	for i := 0; i < mib; i++ {
		chunk := make([]byte, 1<<20)
		for j := 0; j < len(chunk); j += 4096 {
			chunk[j] = 1
		}
		held = append(held, chunk)
		if (i+1)%10 == 0 {
			fmt.Printf("hog: %d MiB touched\n", i+1)
		}
	}
	fmt.Printf("hog: holding %d MiB\n", mib)
	for {
		time.Sleep(time.Hour)
	}
}
