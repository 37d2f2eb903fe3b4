package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

const (
	readyTimeout     = 120 * time.Second
	childStopTimeout = 10 * time.Second
	nodeName         = "node-1"
	contextName      = "evtimeline"
)

type upOptions struct {
	dir                string
	eventTTL           time.Duration
	compactionInterval time.Duration
	kubeconfigOut      string
	exitOnStdinEOF     bool
	verbose            bool

	// Nodes and their kubelet stand-ins (nodeagent.go).
	nodes             int
	heartbeatInterval time.Duration
	podStatus         bool
	// Node failure timings: kube-controller-manager --node-monitor-grace-period and
	// --node-monitor-period, kube-apiserver --default-not-ready-toleration-seconds and
	// --default-unreachable-toleration-seconds (DefaultTolerationSeconds admission).
	nodeMonitorGracePeriod time.Duration
	nodeMonitorPeriod      time.Duration
	notReadyToleration     int
	unreachableToleration  int
}

// readyLine is the single JSON line `up` prints on stdout.
type readyLine struct {
	Ready      bool   `json:"ready"`
	Error      string `json:"error,omitempty"`
	Kubeconfig string `json:"kubeconfig,omitempty"`
	// The same cluster as user `viewer`: authenticated, but granted nothing by RBAC.
	ViewerKubeconfig string  `json:"viewerKubeconfig,omitempty"`
	Server           string  `json:"server,omitempty"`
	Token            string  `json:"token,omitempty"`
	CAFile           string  `json:"caFile,omitempty"`
	StartupSeconds   float64 `json:"startupSeconds"`
	Dir              string  `json:"dir,omitempty"`
	// Process ids: the supervisor (which also runs etcd) and its two children.
	Pid                  int `json:"pid"`
	APIServerPid         int `json:"apiserverPid,omitempty"`
	SchedulerPid         int `json:"schedulerPid,omitempty"`
	ControllerManagerPid int `json:"controllerManagerPid,omitempty"`
	// HTTP over this unix socket stops and restarts node heartbeats (control.go).
	ControlSocket string   `json:"controlSocket,omitempty"`
	Nodes         []string `json:"nodes,omitempty"`
	Kubernetes    string   `json:"kubernetesVersion"`
	Etcd          string   `json:"etcdVersion"`
}

type child struct {
	name    string
	logPath string
	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
}

func (c *child) exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

type supervisor struct {
	opts     upOptions
	start    time.Time
	dir      string
	ownedDir bool
	self     string
	upLog    *os.File

	etcd              *embed.Etcd
	apiserver         *child
	scheduler         *child
	controllerManager *child

	client      kubernetes.Interface
	watchClient kubernetes.Interface
	nodesMu     sync.Mutex
	nodes       map[string]*nodeAgent

	kubeconfigWritten       string
	viewerKubeconfigWritten string

	// stop is closed (once) when the supervisor must shut down.
	stop       chan struct{}
	stopOnce   sync.Once
	stopReason string
	// force is closed on a second signal: skip the graceful wait.
	force     chan struct{}
	forceOnce sync.Once

	spawnReq chan spawnRequest
}

type spawnRequest struct {
	cmd  *exec.Cmd
	resp chan error
}

func runUp(args []string) int {
	fs := flag.NewFlagSet("up", flag.ContinueOnError)
	var o upOptions
	fs.StringVar(&o.dir, "dir", "", "folder for kubeconfig, logs and state (default: a new temp folder, removed on exit)")
	fs.DurationVar(&o.eventTTL, "event-ttl", time.Hour, "kube-apiserver --event-ttl")
	fs.DurationVar(&o.compactionInterval, "etcd-compaction-interval", 5*time.Minute, "kube-apiserver --etcd-compaction-interval")
	fs.StringVar(&o.kubeconfigOut, "kubeconfig-out", "", "where to write the admin kubeconfig (default <dir>/kubeconfig; the viewer's goes next to it, see viewerKubeconfigPath)")
	fs.BoolVar(&o.exitOnStdinEOF, "exit-on-stdin-eof", false, "shut down when stdin reaches EOF")
	fs.BoolVar(&o.verbose, "v", false, "also print supervisor progress to stderr")
	fs.IntVar(&o.nodes, "nodes", 1, "how many nodes to register (node-1 ... node-N), each with a heartbeat")
	fs.DurationVar(&o.heartbeatInterval, "heartbeat-interval", 10*time.Second, "how often each node renews its Lease (the kubelet: 40s lease, renewed every 10s)")
	fs.BoolVar(&o.podStatus, "pod-status", true, "report pods bound to a node Running and Ready, and finish their deletion, as a kubelet would (no container runs)")
	fs.DurationVar(&o.nodeMonitorGracePeriod, "node-monitor-grace-period", 50*time.Second, "kube-controller-manager --node-monitor-grace-period")
	fs.DurationVar(&o.nodeMonitorPeriod, "node-monitor-period", 5*time.Second, "kube-controller-manager --node-monitor-period")
	fs.IntVar(&o.notReadyToleration, "default-not-ready-toleration-seconds", 300, "kube-apiserver --default-not-ready-toleration-seconds")
	fs.IntVar(&o.unreachableToleration, "default-unreachable-toleration-seconds", 300, "kube-apiserver --default-unreachable-toleration-seconds")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.nodes < 1 {
		fmt.Fprintf(os.Stderr, "controlplane up: --nodes must be at least 1\n")
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "controlplane up: unexpected arguments %q\n", fs.Args())
		return 2
	}
	s := &supervisor{
		opts:     o,
		start:    time.Now(),
		stop:     make(chan struct{}),
		force:    make(chan struct{}),
		spawnReq: make(chan spawnRequest),
		nodes:    map[string]*nodeAgent{},
	}
	return s.run()
}

func (s *supervisor) logf(format string, a ...any) {
	msg := fmt.Sprintf("%s up: %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, a...))
	if s.upLog != nil {
		_, _ = s.upLog.WriteString(msg)
	}
	if s.opts.verbose {
		_, _ = os.Stderr.WriteString(msg)
	}
}

func (s *supervisor) requestStop(reason string) {
	s.stopOnce.Do(func() {
		s.stopReason = reason
		close(s.stop)
	})
}

func (s *supervisor) stopping() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

// spawner starts every child from one goroutine locked to its OS thread for the life of the
// process: Linux delivers Pdeathsig when the *thread* that forked the child exits, and the Go
// runtime may retire other threads.
func (s *supervisor) spawner() {
	runtime.LockOSThread()
	for req := range s.spawnReq {
		req.resp <- req.cmd.Start()
	}
}

func (s *supervisor) startChild(name string, args []string) (*child, error) {
	logPath := filepath.Join(s.dir, name+".log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(s.self, append([]string{name}, args...)...)
	cmd.Stdin = nil // /dev/null
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "CONTROLPLANE_SUPERVISED=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Pdeathsig: syscall.SIGKILL,
		// Own process group: a terminal's Ctrl-C reaches only the supervisor, which then stops
		// the children in order (scheduler and apiserver before etcd).
		Setpgid: true,
	}
	resp := make(chan error, 1)
	s.spawnReq <- spawnRequest{cmd: cmd, resp: resp}
	if err := <-resp; err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c := &child{name: name, logPath: logPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		c.waitErr = cmd.Wait()
		close(c.done)
		if !s.stopping() {
			s.logf("%s exited unexpectedly: %v", name, c.waitErr)
			s.requestStop(fmt.Sprintf("%s exited unexpectedly (%v)", name, c.waitErr))
		}
	}()
	s.logf("started %s pid %d: %s", name, cmd.Process.Pid, strings.Join(cmd.Args, " "))
	return c, nil
}

func (s *supervisor) watchTriggers() {
	sigCh := make(chan os.Signal, 4)
	signal.Notify(sigCh, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	// Writing to a closed stdout/stderr pipe must not kill the supervisor before it cleans up:
	// with SIGPIPE notified, such writes just return EPIPE.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	go func() {
		n := 0
		for sig := range sigCh {
			n++
			if n == 1 {
				s.requestStop("signal " + sig.String())
			} else {
				s.forceOnce.Do(func() { close(s.force) })
			}
		}
	}()

	if ppid := os.Getppid(); ppid > 1 {
		go func() {
			for {
				time.Sleep(500 * time.Millisecond)
				if os.Getppid() != ppid {
					s.requestStop("parent process exited")
					return
				}
			}
		}()
	}

	if s.opts.exitOnStdinEOF {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			s.requestStop("stdin closed")
		}()
	}
}

func (s *supervisor) run() int {
	s.watchTriggers()
	go s.spawner()

	code := 0
	ready, err := s.startUp()
	if err != nil {
		code = 1
		if s.stopping() && s.stopReason != "" && !strings.Contains(s.stopReason, "unexpectedly") {
			err = fmt.Errorf("start-up interrupted: %s", s.stopReason)
		}
		s.logf("start-up failed: %v", err)
		fmt.Fprintf(os.Stderr, "controlplane up: %v\n", err)
		s.printFailedLogs()
		line := readyLine{Ready: false, Error: err.Error(), Pid: os.Getpid(), Dir: s.dir,
			StartupSeconds: time.Since(s.start).Seconds(), Kubernetes: kubernetesVersion(), Etcd: etcdVersion()}
		b, _ := json.Marshal(line)
		_, _ = os.Stdout.Write(append(b, '\n'))
	} else {
		b, _ := json.Marshal(ready)
		_, _ = os.Stdout.Write(append(b, '\n'))
		s.logf("ready in %.1fs", ready.StartupSeconds)
		<-s.stop
		s.logf("stopping: %s", s.stopReason)
		if strings.Contains(s.stopReason, "unexpectedly") {
			code = 1
			fmt.Fprintf(os.Stderr, "controlplane up: %s\n", s.stopReason)
			s.printFailedLogs()
		}
	}
	s.requestStop("start-up failed")
	s.shutdown()
	return code
}

func (s *supervisor) children() []*child {
	return []*child{s.apiserver, s.scheduler, s.controllerManager}
}

// printFailedLogs prints the tail of the log of every component that died (or, when none
// did, of all components) to stderr.
func (s *supervisor) printFailedLogs() {
	var logs []string
	for _, c := range s.children() {
		if c != nil && c.exited() {
			logs = append(logs, c.logPath)
		}
	}
	if len(logs) == 0 {
		for _, c := range s.children() {
			if c != nil {
				logs = append(logs, c.logPath)
			}
		}
		if s.dir != "" {
			logs = append(logs, filepath.Join(s.dir, "etcd.log"))
		}
	}
	for _, p := range logs {
		fmt.Fprintf(os.Stderr, "----- last lines of %s -----\n%s\n", filepath.Base(p), tailFile(p, 40, 8192))
	}
}

func tailFile(path string, maxLines int, maxBytes int64) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(cannot read: %v)", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err.Error()
	}
	off := st.Size() - maxBytes
	if off < 0 {
		off = 0
	}
	buf := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(buf), "\n"), "\n")
	if off > 0 && len(lines) > 1 {
		lines = lines[1:] // partial first line
	}
	if len(lines) > maxLines {
		lines = lines[len(lines)-maxLines:]
	}
	return strings.Join(lines, "\n")
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// sleepOrStop waits d; false when the supervisor is stopping.
func (s *supervisor) sleepOrStop(d time.Duration) bool {
	select {
	case <-s.stop:
		return false
	case <-time.After(d):
		return true
	}
}

func (s *supervisor) startUp() (*readyLine, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	s.self = self

	if s.opts.dir == "" {
		d, err := os.MkdirTemp("", "evtimeline-cp-")
		if err != nil {
			return nil, err
		}
		s.dir, s.ownedDir = d, true
	} else {
		d, err := filepath.Abs(s.opts.dir)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
		s.dir = d
	}
	if f, err := os.OpenFile(filepath.Join(s.dir, "up.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
		s.upLog = f
	}
	s.logf("state dir %s (kubernetes %s, etcd %s)", s.dir, kubernetesVersion(), etcdVersion())

	ports, err := freePorts(3)
	if err != nil {
		return nil, fmt.Errorf("pick free ports: %w", err)
	}
	etcdClientPort, etcdPeerPort, apiPort := ports[0], ports[1], ports[2]

	p, err := generatePKI(s.dir)
	if err != nil {
		return nil, fmt.Errorf("generate certificates: %w", err)
	}
	s.logf("pki ready after %s", time.Since(s.start).Round(time.Millisecond))

	// etcd, in this process.
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(etcdClientPort)
	if err := s.startEtcd(etcdClientPort, etcdPeerPort); err != nil {
		return nil, err
	}
	s.logf("etcd ready at %s after %s", etcdURL, time.Since(s.start).Round(time.Millisecond))

	server := "https://127.0.0.1:" + strconv.Itoa(apiPort)
	apiArgs := []string{
		"--etcd-servers=" + etcdURL,
		"--secure-port=" + strconv.Itoa(apiPort),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--tls-cert-file=" + p.servingCert,
		"--tls-private-key-file=" + p.servingKey,
		"--cert-dir=" + filepath.Join(s.dir, "apiserver-certs"),
		"--token-auth-file=" + p.tokenFile,
		"--authorization-mode=RBAC",
		"--service-cluster-ip-range=10.0.0.0/24",
		"--allow-privileged=true",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + p.saPub,
		"--service-account-signing-key-file=" + p.saKey,
		// Every default admission plugin runs, ServiceAccount (pods get their namespace's
		// `default` account) and TaintNodesByCondition (a new Node starts tainted not-ready until
		// the node lifecycle controller sees it Ready) included.
		"--default-not-ready-toleration-seconds=" + strconv.Itoa(s.opts.notReadyToleration),
		"--default-unreachable-toleration-seconds=" + strconv.Itoa(s.opts.unreachableToleration),
		"--event-ttl=" + s.opts.eventTTL.String(),
		"--etcd-compaction-interval=" + s.opts.compactionInterval.String(),
		// The default lease reconciler would try every 10 s to publish 127.0.0.1 as the endpoint
		// of the `kubernetes` Service, which validation rejects (loopback), logging an error.
		"--endpoint-reconciler-type=none",
		// A real node (kubeletnode.go) has no DNS name: reach its kubelet (logs, exec) by
		// InternalIP, with a client certificate of the CA the kubelet trusts (writeClientPKI).
		"--kubelet-preferred-address-types=InternalIP,Hostname",
		"--kubelet-client-certificate=" + filepath.Join(s.dir, "client.crt"),
		"--kubelet-client-key=" + filepath.Join(s.dir, "client.key"),
	}
	clientCA, err := writeClientPKI(s.dir)
	if err != nil {
		return nil, fmt.Errorf("client certificates: %w", err)
	}
	apiArgs = append(apiArgs, "--client-ca-file="+clientCA)
	if s.apiserver, err = s.startChild("kube-apiserver", apiArgs); err != nil {
		return nil, err
	}

	cfg := s.adminConfig(server, p)
	restCfg, err := clientcmd.NewDefaultClientConfig(*cfg, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return nil, err
	}
	restCfg.QPS, restCfg.Burst = 50, 100
	restCfg.Timeout = 10 * time.Second
	client, err := kubernetes.NewForConfig(restCfg)
	if err != nil {
		return nil, err
	}

	deadline := time.Now().Add(readyTimeout)
	// The scheduler and the controller-manager start as soon as the apiserver serves at all (any
	// HTTP answer from /healthz), while its post-start hooks still run: their own start-up
	// overlaps the apiserver's. The controller-manager waits up to 10 s for /healthz itself
	// (cmd/kube-controller-manager/app/controllermanager.go WaitForAPIServer), which the hooks
	// take well under; the scheduler waits as long as it takes.
	if err := s.waitFor("kube-apiserver to serve", deadline, func(ctx context.Context) (bool, error) {
		_, err := client.Discovery().RESTClient().Get().AbsPath("/healthz").DoRaw(ctx)
		var status apierrors.APIStatus
		return err == nil || errors.As(err, &status), nil
	}); err != nil {
		return nil, err
	}
	s.logf("apiserver serving after %s", time.Since(s.start).Round(time.Millisecond))

	// The scheduler talks to the apiserver with the admin token.
	schedKubeconfig := filepath.Join(s.dir, "scheduler.kubeconfig")
	if err := writeKubeconfig(schedKubeconfig, cfg); err != nil {
		return nil, err
	}
	if s.scheduler, err = s.startChild("kube-scheduler", []string{
		"--kubeconfig=" + schedKubeconfig,
		"--leader-elect=false",
		"--secure-port=0",
	}); err != nil {
		return nil, err
	}
	if err := s.startControllerManager(cfg, p); err != nil {
		return nil, err
	}
	if err := s.waitFor("kube-apiserver /readyz", deadline, func(ctx context.Context) (bool, error) {
		body, err := client.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		return err == nil && strings.TrimSpace(string(body)) == "ok", nil
	}); err != nil {
		return nil, err
	}
	s.logf("apiserver ready after %s", time.Since(s.start).Round(time.Millisecond))

	// The node agents' pod informers watch: no overall request timeout (the start-up client has one).
	watchCfg := rest.CopyConfig(restCfg)
	watchCfg.Timeout = 0
	if s.watchClient, err = kubernetes.NewForConfig(watchCfg); err != nil {
		return nil, err
	}
	s.client = client
	socket, err := s.serveControl()
	if err != nil {
		return nil, err
	}
	var nodeNames []string
	for i := 1; i <= s.opts.nodes; i++ {
		name := fmt.Sprintf("node-%d", i)
		nodeNames = append(nodeNames, name)
		if err := s.waitFor("node "+name+" registration", deadline, func(ctx context.Context) (bool, error) {
			_, err := s.addNode(ctx, name)
			return err == nil, err
		}); err != nil {
			return nil, err
		}
	}
	if err := s.waitForControllers(client, nodeNames, deadline); err != nil {
		return nil, err
	}
	for _, c := range s.children() {
		if c.exited() {
			return nil, fmt.Errorf("%s exited: %v", c.name, c.waitErr)
		}
	}

	out := s.opts.kubeconfigOut
	if out == "" {
		out = filepath.Join(s.dir, "kubeconfig")
	}
	if out, err = filepath.Abs(out); err != nil {
		return nil, err
	}
	cfg.Contexts[contextName].Namespace = "default"
	if err := writeKubeconfig(out, cfg); err != nil {
		return nil, fmt.Errorf("write kubeconfig: %w", err)
	}
	s.kubeconfigWritten = out
	viewerOut := viewerKubeconfigPath(out)
	if err := writeKubeconfig(viewerOut, viewerConfig(cfg, p)); err != nil {
		return nil, fmt.Errorf("write viewer kubeconfig: %w", err)
	}
	s.viewerKubeconfigWritten = viewerOut

	return &readyLine{
		Ready:                true,
		Kubeconfig:           out,
		ViewerKubeconfig:     viewerOut,
		Server:               server,
		Token:                p.adminToken,
		CAFile:               p.caFile,
		StartupSeconds:       time.Since(s.start).Seconds(),
		Dir:                  s.dir,
		Pid:                  os.Getpid(),
		APIServerPid:         s.apiserver.cmd.Process.Pid,
		SchedulerPid:         s.scheduler.cmd.Process.Pid,
		ControllerManagerPid: s.controllerManager.cmd.Process.Pid,
		ControlSocket:        socket,
		Nodes:                nodeNames,
		Kubernetes:           kubernetesVersion(),
		Etcd:                 etcdVersion(),
	}, nil
}

// waitFor polls check until it returns true, the deadline passes, a child dies or the
// supervisor is asked to stop.
func (s *supervisor) waitFor(what string, deadline time.Time, check func(ctx context.Context) (bool, error)) error {
	var lastErr error
	for {
		if s.stopping() {
			return fmt.Errorf("waiting for %s: %s", what, s.stopReason)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ok, err := check(ctx)
		cancel()
		if ok {
			return nil
		}
		if err != nil {
			lastErr = err
		}
		if time.Now().After(deadline) {
			if lastErr != nil {
				return fmt.Errorf("timed out after %s waiting for %s: %w", readyTimeout, what, lastErr)
			}
			return fmt.Errorf("timed out after %s waiting for %s", readyTimeout, what)
		}
		if !s.sleepOrStop(200 * time.Millisecond) {
			return fmt.Errorf("waiting for %s: %s", what, s.stopReason)
		}
	}
}

func (s *supervisor) startEtcd(clientPort, peerPort int) error {
	cfg := embed.NewConfig()
	cfg.Name = "evtimeline"
	cfg.Dir = filepath.Join(s.dir, "etcd")
	// Test-only single member that is never restarted: fsync buys nothing.
	cfg.UnsafeNoFsync = true
	clientURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(clientPort))}
	peerURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(peerPort))}
	cfg.ListenClientUrls = []url.URL{clientURL}
	cfg.AdvertiseClientUrls = []url.URL{clientURL}
	cfg.ListenPeerUrls = []url.URL{peerURL}
	cfg.AdvertisePeerUrls = []url.URL{peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.LogOutputs = []string{filepath.Join(s.dir, "etcd.log")}
	cfg.LogLevel = "info"
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("start etcd: %w", err)
	}
	s.etcd = e
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		return fmt.Errorf("etcd failed: %v", err)
	case <-time.After(60 * time.Second):
		return errors.New("etcd took longer than 60s to become ready")
	case <-s.stop:
		return fmt.Errorf("waiting for etcd: %s", s.stopReason)
	}
	go func() {
		if err, ok := <-e.Err(); ok && err != nil && !s.stopping() {
			s.logf("etcd error: %v", err)
			s.requestStop(fmt.Sprintf("etcd exited unexpectedly (%v)", err))
		}
	}()
	return nil
}

func (s *supervisor) adminConfig(server string, p *pki) *clientcmdapi.Config {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[contextName] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: p.caPEM}
	cfg.AuthInfos[adminUser] = &clientcmdapi.AuthInfo{Token: p.adminToken}
	cfg.Contexts[contextName] = &clientcmdapi.Context{Cluster: contextName, AuthInfo: adminUser}
	cfg.CurrentContext = contextName
	return cfg
}

// viewerConfig is cfg (cluster, CA, context name and namespace) with user `viewer` instead of the admin.
func viewerConfig(cfg *clientcmdapi.Config, p *pki) *clientcmdapi.Config {
	v := clientcmdapi.NewConfig()
	for name, cluster := range cfg.Clusters {
		v.Clusters[name] = cluster
	}
	v.AuthInfos[viewerUser] = &clientcmdapi.AuthInfo{Token: p.viewerToken}
	ctx := *cfg.Contexts[contextName]
	ctx.AuthInfo = viewerUser
	v.Contexts[contextName] = &ctx
	v.CurrentContext = contextName
	return v
}

// viewerKubeconfigPath puts the viewer's kubeconfig next to the admin one, named after it:
// kubeconfig -> kubeconfig-viewer, cp.yaml -> cp-viewer.yaml.
func viewerKubeconfigPath(admin string) string {
	ext := filepath.Ext(admin)
	if ext == filepath.Base(admin) { // a dotfile such as .kubeconfig
		ext = ""
	}
	return strings.TrimSuffix(admin, ext) + "-viewer" + ext
}

// writeKubeconfig writes atomically: a temp file in the same folder, then rename.
func writeKubeconfig(path string, cfg *clientcmdapi.Config) error {
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// stopChild sends SIGTERM to the child's process group; SIGKILL after the timeout (or at once
// on a second signal to the supervisor).
func (s *supervisor) stopChildren(children ...*child) {
	var wg sync.WaitGroup
	for _, c := range children {
		if c == nil || c.exited() {
			continue
		}
		wg.Add(1)
		go func(c *child) {
			defer wg.Done()
			pid := c.cmd.Process.Pid
			_ = syscall.Kill(-pid, syscall.SIGTERM)
			select {
			case <-c.done:
				s.logf("%s stopped", c.name)
				return
			case <-time.After(childStopTimeout):
				s.logf("%s did not stop within %s: SIGKILL", c.name, childStopTimeout)
			case <-s.force:
				s.logf("%s: second signal, SIGKILL", c.name)
			}
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			<-c.done
		}(c)
	}
	wg.Wait()
}

func (s *supervisor) shutdown() {
	// The scheduler and the controller-manager first (they only talk to the apiserver), then the
	// apiserver, then etcd.
	s.stopChildren(s.scheduler, s.controllerManager)
	s.stopChildren(s.apiserver)
	if s.etcd != nil {
		done := make(chan struct{})
		go func() { s.etcd.Close(); close(done) }()
		select {
		case <-done:
			s.logf("etcd stopped")
		case <-time.After(15 * time.Second):
			s.logf("etcd did not stop within 15s")
		}
	}
	if s.upLog != nil {
		s.upLog.Close()
		s.upLog = nil
	}
	if s.ownedDir {
		if err := os.RemoveAll(s.dir); err != nil {
			fmt.Fprintf(os.Stderr, "controlplane up: remove %s: %v\n", s.dir, err)
		}
	} else if s.dir != "" {
		// A folder given with --dir is kept (logs stay for inspection); the etcd data and the
		// secrets are removed.
		for _, name := range []string{"etcd", "apiserver-certs", "tokens.csv", "sa.key", "apiserver.key", "scheduler.kubeconfig", "controller-manager.kubeconfig"} {
			_ = os.RemoveAll(filepath.Join(s.dir, name))
		}
	}
	// The kubeconfigs hold tokens of a server that no longer exists.
	for _, path := range []string{s.kubeconfigWritten, s.viewerKubeconfigWritten} {
		if path != "" {
			_ = os.Remove(path)
		}
	}
}
