// Command etcdevents writes many Events to a test control plane quickly, for the benchmarks
// (scripts/bench-events.ts): 200,000 POSTs cost the 2-core machine's API server minutes of CPU
// (admission, validation, managed fields, JSON both ways), so most events go straight into the
// control plane's etcd, in the bytes kube-apiserver itself would have stored, and kube-apiserver
// serves them as it serves any other (its watch cache follows etcd's watch).
//
//	etcdevents --kubeconfig FILE --etcd URL [--ttl 1h] [--check-every 2000] [--workers 8] < planned.jsonl
//
// Each stdin line is `{"path":"/api/v1/namespaces/NS/events","body":{...Event...}}` (core/v1 or
// events.k8s.io/v1). What makes the stored bytes the API server's own:
//   - the first event of each shape (the set of field paths its body sets) is POSTed through the
//     API server for real; its managedFields (which depend only on the fields set) are copied to
//     the others of that shape, with the time of their write;
//   - a body is decoded, defaulted and converted with the API server's own scheme (legacyscheme:
//     events.k8s.io/v1 is stored as core/v1, pkg/apis/events/register.go registers core.Event),
//     given a uid and creationTimestamp as rest.FillObjectMetaSystemFields does, and encoded by
//     the storage codec (protobuf of core/v1, kube-apiserver's default --storage-media-type);
//   - the key is /registry/events/NS/NAME (registry/core/event/storage/storage.go, prefix
//     "events"), put only when absent (etcd3/store.go Create: OptimisticPut at revision 0) with a
//     lease of --ttl plus 60 s shared by up to 1,000 objects (etcd3/lease_manager.go GetLease).
//
// It checks itself: for the first directly written event of each shape and every Nth, it asks
// the API server to create the same body with dryRun=All before the write (the whole create path
// without storing) and, after the writes, GETs what the server now serves; the two must agree
// in everything but uid, resourceVersion, creationTimestamp and managedFields' times, or it
// exits 1 showing both. Prints one JSON line of counts and seconds on stdout.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
)

// pins is the hash of the module's go.mod and go.sum it was built with (scripts/bench-etcd.ts).
var pins string

type planned struct {
	Path string          `json:"path"`
	Body json.RawMessage `json:"body"`
}

// Objects per lease, and the lease's extra seconds (kube-apiserver's defaults:
// --lease-reuse-duration-seconds 60, leaseMaxAttachedObjectCount 1000).
const (
	perLease   = 1000
	leaseExtra = 60
	batch      = 64 // puts per etcd transaction (etcd's --max-txn-ops is 128)
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "admin kubeconfig of the control plane")
	etcdURL := flag.String("etcd", "", "the etcd kube-apiserver uses (its --etcd-servers)")
	ttl := flag.Duration("ttl", time.Hour, "kube-apiserver --event-ttl")
	checkEvery := flag.Int("check-every", 2000, "compare every Nth directly written event with a dry-run create")
	workers := flag.Int("workers", 8, "etcd transactions in flight")
	flag.Parse()
	if err := run(*kubeconfig, *etcdURL, *ttl, *checkEvery, *workers); err != nil {
		fmt.Fprintf(os.Stderr, "etcdevents: %v\n", err)
		os.Exit(1)
	}
}

func run(kubeconfig, etcdURL string, ttl time.Duration, checkEvery, workers int) error {
	if kubeconfig == "" || etcdURL == "" {
		return fmt.Errorf("--kubeconfig and --etcd are required")
	}
	started := time.Now()
	lines, err := readPlanned()
	if err != nil {
		return err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst, cfg.UserAgent = 1000, 1000, "bench-timeline"
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	rc := cs.CoreV1().RESTClient()
	ctx := context.Background()

	// Through the API server: the first event of each shape (its managedFields are the shape's),
	// and a dry-run create of each event to check.
	fields := map[string][]metav1.ManagedFieldsEntry{}
	direct := make([]int, 0, len(lines))
	dryRuns := map[int]map[string]any{}
	posted := 0
	for i, p := range lines {
		shape, err := shapeOf(p.Body)
		if err != nil {
			return fmt.Errorf("line %d: %v", i+1, err)
		}
		mf, seen := fields[shape]
		if !seen {
			out, err := post(ctx, rc, p, false)
			if err != nil {
				return err
			}
			obj, err := decode(out)
			if err != nil {
				return err
			}
			fields[shape] = obj.ManagedFields
			posted++
			continue
		}
		if len(mf) == 0 {
			return fmt.Errorf("the API server stored %s without managedFields", p.Path)
		}
		if _, checked := firstChecked[shape]; !checked || (checkEvery > 0 && len(direct)%checkEvery == 0) {
			firstChecked[shape] = true
			out, err := post(ctx, rc, p, true)
			if err != nil {
				return err
			}
			var m map[string]any
			if err := json.Unmarshal(out, &m); err != nil {
				return err
			}
			dryRuns[i] = m
		}
		direct = append(direct, i)
		lineShape[i] = shape
	}

	etcd, err := clientv3.New(clientv3.Config{Endpoints: []string{etcdURL}, DialTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	defer etcd.Close()
	codec := legacyscheme.Codecs.EncoderForVersion(protobuf.NewSerializer(legacyscheme.Scheme, legacyscheme.Scheme), corev1.SchemeGroupVersion)
	leaseTTL := int64(ttl/time.Second) + leaseExtra
	leases := make([]clientv3.LeaseID, (len(direct)+perLease-1)/perLease)
	for k := range leases {
		l, err := etcd.Grant(ctx, leaseTTL)
		if err != nil {
			return fmt.Errorf("etcd lease: %v", err)
		}
		leases[k] = l.ID
	}

	jobs := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for start := range jobs {
				if err := putBatch(ctx, etcd, codec, lines, direct, start, leases, fields); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var failed error
	for start := 0; start < len(direct) && failed == nil; start += batch {
		select {
		case jobs <- start:
		case failed = <-errs:
		}
	}
	close(jobs)
	wg.Wait()
	if failed == nil && len(errs) > 0 {
		failed = <-errs
	}
	if failed != nil {
		return failed
	}
	written := time.Since(started)

	for _, i := range sortedKeys(dryRuns) {
		p := lines[i]
		name, err := nameOf(p.Body)
		if err != nil {
			return err
		}
		out, err := rc.Get().AbsPath(p.Path, name).DoRaw(ctx)
		if err != nil {
			return fmt.Errorf("GET %s/%s: %v", p.Path, name, err)
		}
		var served map[string]any
		if err := json.Unmarshal(out, &served); err != nil {
			return err
		}
		want := dryRuns[i]
		blankServerFields(want)
		blankServerFields(served)
		if !reflect.DeepEqual(want, served) {
			w, _ := json.Marshal(want)
			s, _ := json.Marshal(served)
			return fmt.Errorf("%s/%s as served differs from the API server's own create:\n  create: %s\n  served: %s", p.Path, name, w, s)
		}
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"events": len(lines), "posted": posted, "direct": len(direct), "checked": len(dryRuns), "shapes": len(fields),
		"seconds": written.Seconds(), "pins": pins,
	})
}

var (
	firstChecked = map[string]bool{}
	lineShape    = map[int]string{}
)

func readPlanned() ([]planned, error) {
	var lines []planned
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var p planned
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("stdin line %d: %v", len(lines)+1, err)
		}
		if !strings.HasSuffix(p.Path, "/events") || !strings.Contains(p.Path, "/namespaces/") {
			return nil, fmt.Errorf("stdin line %d: %q is not a namespace's events", len(lines)+1, p.Path)
		}
		lines = append(lines, p)
	}
	return lines, sc.Err()
}

// shapeOf is the body's field paths, sorted: events of one shape get the same managedFields
// (fieldsV1 lists the fields set, never their values).
func shapeOf(body []byte) (string, error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return "", err
	}
	var paths []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, c := range t {
				if prefix == "" && k == "metadata" {
					continue
				}
				paths = append(paths, prefix+"."+k)
				walk(prefix+"."+k, c)
			}
		case []any:
			for k, c := range t {
				walk(fmt.Sprintf("%s[%d]", prefix, k), c)
			}
		}
	}
	walk("", v)
	sort.Strings(paths)
	return strings.Join(paths, " "), nil
}

func post(ctx context.Context, rc rest.Interface, p planned, dryRun bool) ([]byte, error) {
	req := rc.Post().AbsPath(p.Path).SetHeader("Content-Type", "application/json").Body([]byte(p.Body))
	if dryRun {
		req = req.Param("dryRun", "All")
	}
	out, err := req.DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("POST %s (dryRun %v): %v: %s", p.Path, dryRun, err, out)
	}
	return out, nil
}

// decode reads an Event the way kube-apiserver's handler does: defaulted and converted to the
// internal type, whatever its group.
func decode(body []byte) (*api.Event, error) {
	obj, _, err := legacyscheme.Codecs.UniversalDecoder().Decode(body, nil, nil)
	if err != nil {
		return nil, err
	}
	ev, ok := obj.(*api.Event)
	if !ok {
		return nil, fmt.Errorf("not an Event: %T", obj)
	}
	return ev, nil
}

func nameOf(body []byte) (string, error) {
	var m struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(body, &m); err != nil || m.Metadata.Name == "" {
		return "", fmt.Errorf("an event without metadata.name: %s", body)
	}
	return m.Metadata.Name, nil
}

func putBatch(ctx context.Context, etcd *clientv3.Client, codec runtime.Encoder, lines []planned, direct []int, start int, leases []clientv3.LeaseID, fields map[string][]metav1.ManagedFieldsEntry) error {
	end := min(start+batch, len(direct))
	cmps := make([]clientv3.Cmp, 0, end-start)
	puts := make([]clientv3.Op, 0, end-start)
	var buf bytes.Buffer
	for k := start; k < end; k++ {
		i := direct[k]
		ev, err := decode(lines[i].Body)
		if err != nil {
			return fmt.Errorf("line %d: %v", i+1, err)
		}
		now := metav1.Now()
		// rest.FillObjectMetaSystemFields; the managed fields of the shape, written now.
		ev.CreationTimestamp, ev.UID = now, uuid.NewUUID()
		mf := append([]metav1.ManagedFieldsEntry(nil), fields[lineShape[i]]...)
		for j := range mf {
			mf[j].Time = &now
		}
		ev.ManagedFields = mf
		ev.ResourceVersion = "" // APIObjectVersioner.PrepareObjectForStorage
		buf.Reset()
		if err := codec.Encode(ev, &buf); err != nil {
			return err
		}
		key := "/registry/events/" + ev.Namespace + "/" + ev.Name
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(key), "=", 0))
		puts = append(puts, clientv3.OpPut(key, buf.String(), clientv3.WithLease(leases[k/perLease])))
	}
	resp, err := etcd.Txn(ctx).If(cmps...).Then(puts...).Commit()
	if err != nil {
		return fmt.Errorf("etcd: %v", err)
	}
	if !resp.Succeeded {
		return fmt.Errorf("etcd: one of events %d-%d already exists", start, end-1)
	}
	return nil
}

// blankServerFields drops what differs between any two creates of one body.
func blankServerFields(obj map[string]any) {
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		return
	}
	for _, k := range []string{"uid", "resourceVersion", "creationTimestamp"} {
		delete(meta, k)
	}
	mf, _ := meta["managedFields"].([]any)
	for _, e := range mf {
		if m, ok := e.(map[string]any); ok {
			delete(m, "time")
		}
	}
}

func sortedKeys(m map[int]map[string]any) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}
