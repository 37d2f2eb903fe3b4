package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	restclient "k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/tools/reference"
)

// `controlplane emit` writes events the way an operator does: through client-go's own
// recorders, so what lands on the server is what their caches, correlators and series make of
// the calls, not what a test author believes they make of them.
//
//	--recorder=core    k8s.io/client-go/tools/record: record.NewBroadcaster, StartRecordingToSink
//	                   with typed core/v1 EventSinkImpl, NewRecorder(scheme, EventSource{component,
//	                   host}). Every event passes its EventCorrelator (tools/record/events_cache.go):
//	                     - aggregation (EventAggregate): key = source, involved object, type, reason,
//	                       reportingController/Instance; the message is the local key. When a key
//	                       has seen 10 distinct messages (defaultAggregateMaxEvents), each with less
//	                       than 600 s (defaultAggregateIntervalInSeconds) since the key's previous
//	                       event, the 10th and every later new message become ONE event named
//	                       <object>.<hex nanos>, message "(combined from similar events): <latest>",
//	                       whose count then grows; it carries no reportingController/Instance.
//	                     - counting (eventObserve): an event identical in source, object, type,
//	                       reason and message to one in the LRU cache is sent as a strategic-merge
//	                       patch of count, lastTimestamp and message of the first one.
//	                     - spam filter (EventSourceObjectSpamFilter): a token bucket per source +
//	                       object + type (not reason, not message): burst 25, refill 1/300 s
//	                       (defaultSpamBurst, defaultSpamQPS). An event without a token is dropped,
//	                       yet the cache still counted it, so the next write carries the higher count.
//	--recorder=events  k8s.io/client-go/tools/events: NewBroadcaster(EventSinkImpl{EventsV1()}),
//	                   StartRecordingToSinkWithContext, NewRecorder(scheme, component); the
//	                   instance is always "<component>-<hostname>" (NewRecorder). In
//	                   event_broadcaster.go recordToSink, the first occurrence of a key (type,
//	                   action, reason, reportingController/Instance, regarding, related; NOT the
//	                   note) is created, the second is patched in as series {count: 2}, and every
//	                   later one only bumps series.count in memory: the server sees it when
//	                   refreshExistingEventSeries runs (every 30 min) or finishSeries closes the
//	                   series after 6 min of quiet. A process that exits earlier never sends it:
//	                   on the server series.count stays 2, as with a short-lived operator.
//	                   Both loops also run once at once when recording starts (wait.UntilWithContext
//	                   calls f before its first period); emit lets that pass go by before the first
//	                   occurrence, as in an operator whose broadcaster started at boot (below).
//
// Where the code says so (k8s.io/client-go@v0.36.3):
//   - tools/record/events_cache.go:40-48 the constants (10 messages, 600 s, burst 25, 1/300 qps);
//     :52-67 getEventKey (counting); :70-82 getSpamKey (no reason, no message); :161-176
//     EventAggregatorByReasonFunc; :183 the "(combined from similar events): " prefix; :238-293
//     EventAggregate (the 10th distinct message makes the combined event, named
//     <object>.<hex nanos>, without reportingController/Instance); :323-366 eventObserve (the
//     cache counts before the spam filter runs); :506-516 EventCorrelate (aggregate, observe,
//     then filter).
//   - tools/record/event.go:288-324 recordToSink (a skipped event is never sent); :330-370
//     recordEvent (patch when count > 1, create when the patch finds nothing; AlreadyExists is
//     not retried); :449 ValidateEventType.
//   - tools/events/event_broadcaster.go:50-51 finishTime 6 min, refreshTime 30 min; :127-140
//     refreshExistingEventSeries; :145-161 finishSeries; :165-166 the instance
//     <component>-<hostname>; :170-206 recordToSink (a goroutine per event; series {count: 2} on
//     the second, then memory only); :230-281 recordEvent (AlreadyExists on a series' create is
//     retried); :297-310 getKey (no note); :391-395 StartRecordingToSinkWithContext starts both
//     loops with wait.UntilWithContext (k8s.io/apimachinery@v0.36.3 pkg/util/wait/backoff.go:171,
//     240-270: f runs first, then every period).
//   - tools/events/event_recorder.go:80 ValidateEventType.
//
// Both recorders drop types other than Normal and Warning before sending (record/util
// ValidateEventType); emit passes them on, so a test can see that too.
//
// The broadcasters are asynchronous (a watch.Broadcaster queue, and in tools/events a
// goroutine per event), and Shutdown does not flush: the core broadcaster's Shutdown cancels
// the goroutine that writes (record/event.go StartEventWatcher), dropping what is still queued.
// So emit waits for the writes itself before it shuts down:
//   - core: its events are handled one after another by one goroutine. After the last one, emit
//     records a barrier event about an object of its own (its own spam and aggregation keys, so
//     it changes nothing for the others); the sink below swallows it, and when it arrives every
//     earlier event has been written, retried or dropped.
//   - events: exactly min(count, 2) writes reach the sink (see above); emit waits for that many
//     to finish as recordEvent would (a patch that finds nothing goes on to a create; a create
//     of a series that finds the event already there is retried).

type emitOptions struct {
	kubeconfig, recorder                   string
	kind, apiVersion, name, namespace, uid string
	fieldPath                              string
	eventType, reason, message, action     string
	component, instance                    string
	count                                  int
	interval, timeout                      time.Duration
}

// emitReport is the one JSON line emit prints.
type emitReport struct {
	Recorder string `json:"recorder"`
	Emitted  int    `json:"emitted"`
	// Requests the sink made that the server accepted.
	Creates int `json:"creates"`
	Patches int `json:"patches"`
	// Requests the server refused (the recorder logs each on stderr).
	Errors            int    `json:"errors"`
	ReportingInstance string `json:"reportingInstance"`
	// The object the events are about, as the recorder referenced it.
	Regarding corev1.ObjectReference `json:"regarding"`
}

const barrierAnnotation = "emit.evtimeline.test/barrier"

// settleRecording is how long emit lets a new events.k8s.io broadcaster run before the first
// occurrence (emitEvents says why).
const settleRecording = 200 * time.Millisecond

func runEmit(args []string) int {
	fs := flag.NewFlagSet("emit", flag.ContinueOnError)
	var o emitOptions
	fs.StringVar(&o.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig of the cluster (default $KUBECONFIG)")
	fs.StringVar(&o.recorder, "recorder", "core", "core (client-go tools/record, core/v1 with the EventCorrelator) or events (client-go tools/events, events.k8s.io/v1 with series)")
	fs.StringVar(&o.kind, "kind", "", "kind of the object the events are about (required)")
	fs.StringVar(&o.apiVersion, "api-version", "v1", "apiVersion of the object (group/version, or v1)")
	fs.StringVar(&o.name, "name", "", "name of the object (required)")
	fs.StringVar(&o.namespace, "namespace", "", "namespace of the object (empty for a cluster-scoped object: its events go to default)")
	fs.StringVar(&o.uid, "uid", "", "uid of the object; when empty, emit reads the live object and hands it to the recorder as an operator would (uid and resourceVersion included)")
	fs.StringVar(&o.fieldPath, "field-path", "", "involvedObject.fieldPath (only with --uid)")
	fs.StringVar(&o.eventType, "type", corev1.EventTypeNormal, "Normal or Warning (the recorders drop anything else)")
	fs.StringVar(&o.reason, "reason", "", "reason (required)")
	fs.StringVar(&o.message, "message", "", "message (note); {n} is replaced by the occurrence number 1..count")
	fs.StringVar(&o.action, "action", "", "action (events recorder only; defaults to the reason)")
	fs.StringVar(&o.component, "component", "evtimeline-emit", "reporting component (source.component / reportingController)")
	fs.StringVar(&o.instance, "instance", "", "reporting instance (core: source.host and reportingInstance; the events recorder always uses <component>-<hostname>)")
	fs.IntVar(&o.count, "count", 1, "how many times to record the event")
	fs.DurationVar(&o.interval, "interval", 0, "pause between two occurrences")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "give up waiting for the writes after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := o.validate(fs.NArg()); err != nil {
		fmt.Fprintf(os.Stderr, "controlplane emit: %v\n", err)
		return 2
	}
	report, err := emit(o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "controlplane emit: %v\n", err)
		return 1
	}
	b, _ := json.Marshal(report)
	fmt.Println(string(b))
	return 0
}

func (o *emitOptions) validate(extra int) error {
	switch {
	case extra > 0:
		return errors.New("unexpected arguments")
	case o.kubeconfig == "":
		return errors.New("--kubeconfig (or $KUBECONFIG) is required")
	case o.kind == "" || o.name == "" || o.reason == "":
		return errors.New("--kind, --name and --reason are required")
	case o.recorder != "core" && o.recorder != "events":
		return fmt.Errorf("--recorder must be core or events, not %q", o.recorder)
	case o.recorder == "events" && o.instance != "":
		return errors.New("--instance: the events recorder names its instance <component>-<hostname> itself (client-go tools/events NewRecorder)")
	case o.count < 0:
		return errors.New("--count must not be negative")
	case o.fieldPath != "" && o.uid == "":
		return errors.New("--field-path needs --uid")
	}
	return nil
}

func (o *emitOptions) messageFor(n int) string {
	return strings.ReplaceAll(o.message, "{n}", strconv.Itoa(n))
}

func emit(o emitOptions) (*emitReport, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return nil, err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	regarding, err := o.object(ctx, cfg, client)
	if err != nil {
		return nil, err
	}
	if o.recorder == "core" {
		return emitCore(ctx, o, client, regarding)
	}
	return emitEvents(ctx, o, client, regarding)
}

// object is what the recorder is handed: the reference given by the flags, or the live object.
func (o *emitOptions) object(ctx context.Context, cfg *restclient.Config, client kubernetes.Interface) (runtime.Object, error) {
	if o.uid != "" {
		return &corev1.ObjectReference{Kind: o.kind, APIVersion: o.apiVersion, Name: o.name, Namespace: o.namespace,
			UID: types.UID(o.uid), FieldPath: o.fieldPath}, nil
	}
	gv, err := schema.ParseGroupVersion(o.apiVersion)
	if err != nil {
		return nil, err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery()))
	mapping, err := mapper.RESTMapping(schema.GroupKind{Group: gv.Group, Kind: o.kind}, gv.Version)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", o.apiVersion, o.kind, err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	obj, err := dyn.Resource(mapping.Resource).Namespace(o.namespace).Get(ctx, o.name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("read %s %s/%s (give --uid to emit about an object that does not exist): %w", o.kind, o.namespace, o.name, err)
	}
	return obj, nil
}

// pace calls record(n) for n = 1..count, --interval apart.
func pace(ctx context.Context, o emitOptions, record func(n int)) error {
	for n := 1; n <= o.count; n++ {
		if n > 1 && o.interval > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(o.interval):
			}
		}
		record(n)
	}
	return nil
}

// tally counts what the sink sent.
type tally struct {
	mu                     sync.Mutex
	creates, patches, errs int
}

func (t *tally) add(create bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case err != nil:
		t.errs++
	case create:
		t.creates++
	default:
		t.patches++
	}
}

// coreSink is typed core/v1 EventSinkImpl, counting, and swallowing the barrier event.
type coreSink struct {
	inner   record.EventSink
	tally   *tally
	barrier chan struct{}
	once    sync.Once
}

func (s *coreSink) Create(e *corev1.Event) (*corev1.Event, error) {
	if e.Annotations[barrierAnnotation] != "" {
		s.once.Do(func() { close(s.barrier) })
		return e, nil
	}
	out, err := s.inner.Create(e)
	s.tally.add(true, err)
	return out, err
}

func (s *coreSink) Update(e *corev1.Event) (*corev1.Event, error) { return s.inner.Update(e) }

func (s *coreSink) Patch(e *corev1.Event, data []byte) (*corev1.Event, error) {
	out, err := s.inner.Patch(e, data)
	if !apierrors.IsNotFound(err) { // a patch that finds nothing is followed by a create
		s.tally.add(false, err)
	}
	return out, err
}

func emitCore(ctx context.Context, o emitOptions, client kubernetes.Interface, regarding runtime.Object) (*emitReport, error) {
	t := &tally{}
	sink := &coreSink{inner: &typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")}, tally: t, barrier: make(chan struct{})}
	broadcaster := record.NewBroadcaster()
	broadcaster.StartRecordingToSink(sink)
	recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: o.component, Host: o.instance})
	err := pace(ctx, o, func(n int) { recorder.Event(regarding, o.eventType, o.reason, o.messageFor(n)) })
	if err == nil {
		barrier := &corev1.ObjectReference{Kind: "EmitBarrier", APIVersion: "v1", Name: "emit-barrier", Namespace: o.namespace, UID: "emit-barrier"}
		recorder.AnnotatedEventf(barrier, map[string]string{barrierAnnotation: "true"}, corev1.EventTypeNormal, "Barrier", "%s", "not sent")
		select {
		case <-sink.barrier:
		case <-ctx.Done():
			err = fmt.Errorf("the recorder's writes did not finish within %s", o.timeout)
		}
	}
	broadcaster.Shutdown()
	if err != nil {
		return nil, err
	}
	ref, _ := referenceOf(regarding)
	return &emitReport{Recorder: "core/v1", Emitted: o.count, Creates: t.creates, Patches: t.patches, Errors: t.errs,
		ReportingInstance: o.instance, Regarding: ref}, nil
}

// eventsSink is tools/events EventSinkImpl, counting the writes that recordEvent would not retry.
type eventsSink struct {
	inner events.EventSink
	tally *tally
	done  chan struct{} // one value per finished write
}

func (s *eventsSink) finished(create bool, err error) {
	s.tally.add(create, err)
	select {
	case s.done <- struct{}{}:
	default: // more writes than expected: nobody waits for them
	}
}

func (s *eventsSink) Create(ctx context.Context, e *eventsv1.Event) (*eventsv1.Event, error) {
	out, err := s.inner.Create(ctx, e)
	var status apierrors.APIStatus
	switch {
	case err == nil:
		s.finished(true, nil)
	case apierrors.IsAlreadyExists(err) && e.Series != nil:
		// recordEvent retries: the next attempt patches the series in.
	case errors.As(err, &status), isConstructionError(err):
		s.finished(true, err)
	}
	return out, err
}

func (s *eventsSink) Update(ctx context.Context, e *eventsv1.Event) (*eventsv1.Event, error) {
	return s.inner.Update(ctx, e)
}

func (s *eventsSink) Patch(ctx context.Context, e *eventsv1.Event, data []byte) (*eventsv1.Event, error) {
	out, err := s.inner.Patch(ctx, e, data)
	var status apierrors.APIStatus
	switch {
	case err == nil:
		s.finished(false, nil)
	case apierrors.IsNotFound(err):
		// recordEvent goes on to create it.
	case errors.As(err, &status), isConstructionError(err):
		s.finished(false, err)
	}
	return out, err
}

func isConstructionError(err error) bool {
	var c *restclient.RequestConstructionError
	return errors.As(err, &c)
}

func emitEvents(ctx context.Context, o emitOptions, client kubernetes.Interface, regarding runtime.Object) (*emitReport, error) {
	t := &tally{}
	sink := &eventsSink{inner: &events.EventSinkImpl{Interface: client.EventsV1()}, tally: t, done: make(chan struct{}, 4)}
	broadcaster := events.NewBroadcaster(sink)
	recordCtx, stopRecording := context.WithCancel(context.Background())
	defer stopRecording()
	if err := broadcaster.StartRecordingToSinkWithContext(recordCtx); err != nil {
		return nil, err
	}
	// StartRecordingToSinkWithContext runs refreshExistingEventSeries and finishSeries once at
	// once, each in a goroutine of its own. An operator starts its broadcaster at boot, long
	// before its first event, so that first pass finds an empty cache. Here the occurrences
	// follow within microseconds: a pass scheduled after them (seen on a loaded 2-core machine)
	// patched the series with the count then in memory (series.count 20 instead of 2, a third
	// write that the process may not live to finish). This pause lets the goroutines run first:
	// this one sleeps, so the scheduler runs the ones that are ready.
	select {
	case <-time.After(settleRecording):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	recorder := broadcaster.NewRecorder(scheme.Scheme, o.component)
	action := o.action
	if action == "" {
		action = o.reason
	}
	err := pace(ctx, o, func(n int) { recorder.Eventf(regarding, nil, o.eventType, o.reason, action, "%s", o.messageFor(n)) })
	writes := min(o.count, 2)
	if o.eventType != corev1.EventTypeNormal && o.eventType != corev1.EventTypeWarning {
		writes = 0
	}
	for i := 0; i < writes && err == nil; i++ {
		select {
		case <-sink.done:
		case <-ctx.Done():
			err = fmt.Errorf("the recorder's writes did not finish within %s (%d of %d)", o.timeout, i, writes)
		}
	}
	broadcaster.Shutdown()
	if err != nil {
		return nil, err
	}
	hostname, _ := os.Hostname()
	ref, _ := referenceOf(regarding)
	return &emitReport{Recorder: "events.k8s.io/v1", Emitted: o.count, Creates: t.creates, Patches: t.patches, Errors: t.errs,
		ReportingInstance: o.component + "-" + hostname, Regarding: ref}, nil
}

func referenceOf(obj runtime.Object) (corev1.ObjectReference, error) {
	ref, err := reference.GetReference(scheme.Scheme, obj)
	if err != nil || ref == nil {
		return corev1.ObjectReference{}, err
	}
	return *ref, nil
}
