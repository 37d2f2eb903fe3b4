// The reference for `npm run bench:follow` (scripts/bench-follow.ts): client-go's own shared
// informer on core/v1 Events in all namespaces, the way controllers watch the API server (a
// reflector: list, then watch from the list's resourceVersion, relist on 410). It prints one line
// per handler call on stdout, `<unix ms> <A|U|D> <namespace> <name>`, and nothing else, so the
// benchmark can count what the apiserver's watch delivered and when, beside -w and record.
//
//	informer --kubeconfig FILE
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file")
	flag.Parse()
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintf(os.Stderr, "informer: %v\n", err)
		os.Exit(2)
	}
	// client-go's default 5 QPS bounds requests, not a watch's events; raised so relists are not throttled.
	config.QPS, config.Burst = 100, 200
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintf(os.Stderr, "informer: %v\n", err)
		os.Exit(2)
	}

	var mu sync.Mutex
	out := bufio.NewWriterSize(os.Stdout, 64*1024)
	emit := func(kind string, obj interface{}) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		ev, ok := obj.(*corev1.Event)
		if !ok {
			return
		}
		mu.Lock()
		fmt.Fprintf(out, "%d %s %s %s\n", time.Now().UnixMilli(), kind, ev.Namespace, ev.Name)
		mu.Unlock()
	}

	factory := informers.NewSharedInformerFactory(client, 0)
	events := factory.Core().V1().Events().Informer()
	if _, err := events.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj interface{}) { emit("A", obj) },
		UpdateFunc: func(_, obj interface{}) { emit("U", obj) },
		DeleteFunc: func(obj interface{}) { emit("D", obj) },
	}); err != nil {
		fmt.Fprintf(os.Stderr, "informer: %v\n", err)
		os.Exit(1)
	}
	stop := make(chan struct{})
	factory.Start(stop)
	if !cache.WaitForCacheSync(stop, events.HasSynced) {
		fmt.Fprintln(os.Stderr, "informer: the cache never synced")
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "informer: synced")

	// Flushed ten times a second: the benchmark times arrivals by the line's own clock.
	ticker := time.NewTicker(100 * time.Millisecond)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	for {
		select {
		case <-ticker.C:
			mu.Lock()
			err := out.Flush()
			mu.Unlock()
			if err != nil {
				os.Exit(0) // the reader left
			}
		case <-signals:
			close(stop)
			mu.Lock()
			_ = out.Flush()
			mu.Unlock()
			return
		}
	}
}
