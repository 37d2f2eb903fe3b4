package main

// What a real node touches on the host, and how each is kept to this node or undone:
//
//   - A slot 0..63, claimed by binding the abstract unix socket @evtimeline-kubelet-node-<i>: the
//     kernel releases it when the process dies, so concurrent nodes (several test runs on one
//     machine) never share a bridge (evtnode<i>), a pod subnet (10.244.<100+i>.0/24) or a cgroup root
//     (/evtimeline-node-<i>). A new holder first removes what a killed holder left (staleCleanup).
//   - The kubelet writes vm.overcommit_memory, vm.panic_on_oom, kernel.panic, kernel.panic_on_oops,
//     kernel.keys.root_maxkeys and root_maxbytes (pkg/kubelet/cm/container_manager_linux.go
//     setupKernelTunables; no opt-out: protectKernelDefaults makes it fail instead), and the CNI
//     bridge plugin with isGateway writes net.ipv4.ip_forward. A file of this node is bound over
//     each, in this process's private mount namespace: they write the file, the host keeps its value.
//   - Fixed paths the kubelet, containerd and libcni use whatever the configuration says
//     (/var/lib/kubelet/device-plugins, /var/log/containers, /var/log/pods, /var/lib/cni,
//     /run/containerd/s and /fifo): a folder of this node is bound over each, in the namespace. A path
//     the host lacks is made inside an overlay of its nearest existing ancestor (upper layer in the
//     state folder), so nothing is ever created on the host.
//   - cgroups (kubelet cgroupRoot, and containerd's pods under it) and the bridge are host-global:
//     teardown kills every process in the cgroup tree, removes it depth-first and deletes the bridge.

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

const (
	nodeSlots     = 64
	realNodeTaint = "evtimeline.dev/real-node=true:NoSchedule"
)

// nodeSysctls are the /proc/sys entries the kubelet and the bridge plugin write.
var nodeSysctls = []string{
	"vm/overcommit_memory", "vm/panic_on_oom", "kernel/panic", "kernel/panic_on_oops",
	"kernel/keys/root_maxkeys", "kernel/keys/root_maxbytes", "net/ipv4/ip_forward",
}

// nodeFixedPaths are used by the kubelet, containerd and libcni whatever their configuration says.
var nodeFixedPaths = []string{"/var/lib/kubelet", "/var/log/containers", "/var/log/pods", "/var/lib/cni", "/run/containerd"}

// nodePrerequisites names, in one line, the first thing this machine lacks for a real node, or "".
func nodePrerequisites() string {
	if os.Geteuid() != 0 {
		return "a real node needs root (the kubelet, containerd and runc manage cgroups, mounts and network namespaces): run as root"
	}
	if len(cgroupMounts()) == 0 {
		return "a real node needs cgroups: no cgroup or cgroup2 file system is mounted under /sys/fs/cgroup"
	}
	if fsTypes, err := os.ReadFile("/proc/filesystems"); err != nil || !bytes.Contains(fsTypes, []byte("\toverlay\n")) {
		return "a real node needs overlayfs (containerd's snapshotter): modprobe overlay"
	}
	if _, err := exec.LookPath("runc"); err != nil {
		return "a real node needs runc on PATH: apt-get install -y runc"
	}
	if !staticELF("/bin/busybox") {
		return "a real node needs a statically linked /bin/busybox for its busybox image: apt-get install -y busybox-static"
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		return "a real node needs unshare on PATH: apt-get install -y util-linux"
	}
	return ""
}

// staticELF: an ELF executable with no program interpreter (runs in an image without a libc).
func staticELF(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return false
		}
	}
	return true
}

type nodeSlot struct {
	index      int
	bridge     string
	podCIDR    string
	gateway    string
	cgroupRoot string
	fd         int
}

// claimNodeSlot binds the first free abstract socket of the 64 slots and cleans what a dead holder left.
func claimNodeSlot() (*nodeSlot, error) {
	for i := 0; i < nodeSlots; i++ {
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return nil, err
		}
		if err := unix.Bind(fd, &unix.SockaddrUnix{Name: "@evtimeline-kubelet-node-" + strconv.Itoa(i)}); err != nil {
			unix.Close(fd)
			if errors.Is(err, unix.EADDRINUSE) {
				continue
			}
			return nil, err
		}
		s := &nodeSlot{
			index: i, fd: fd,
			bridge:     fmt.Sprintf("evtnode%d", i),
			podCIDR:    fmt.Sprintf("10.244.%d.0/24", 100+i),
			gateway:    fmt.Sprintf("10.244.%d.1", 100+i),
			cgroupRoot: fmt.Sprintf("/evtimeline-node-%d", i),
		}
		s.staleCleanup()
		return s, nil
	}
	return nil, fmt.Errorf("all %d real-node slots are in use on this machine", nodeSlots)
}

// staleCleanup removes the cgroups and the bridge of a holder that was killed before its teardown.
func (s *nodeSlot) staleCleanup() {
	quiet := func(string, ...any) {}
	killCgroupProcesses(s.cgroupRoot, quiet)
	removeCgroupTree(s.cgroupRoot, quiet)
	deleteBridge(s.bridge, quiet)
}

func (s *nodeSlot) release() { unix.Close(s.fd) }

// primaryIPv4 is the source address of the default route (the kubelet rejects a loopback node IP:
// "nodeIP can't be loopback address", pkg/kubelet/nodestatus/setters.go).
func primaryIPv4() (string, error) {
	if c, err := net.Dial("udp4", "192.0.2.1:9"); err == nil { // no packet is sent: UDP connect only routes
		defer c.Close()
		if ip := c.LocalAddr().(*net.UDPAddr).IP; !ip.IsLoopback() {
			return ip.String(), nil
		}
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return "", err
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil && !ipn.IP.IsLoopback() && !strings.HasPrefix(ipn.IP.String(), "10.244.") {
			return ipn.IP.String(), nil
		}
	}
	return "", errors.New("a real node needs a non-loopback IPv4 address (the kubelet rejects 127.0.0.1 as its node IP)")
}

func freeTCPPort(ip string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// cgroupMounts lists the cgroup (v1, each controller) and cgroup2 mount points.
func cgroupMounts() []string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		for i, fld := range fields {
			if fld == "-" && i+1 < len(fields) && (fields[i+1] == "cgroup" || fields[i+1] == "cgroup2") {
				out = append(out, fields[4])
			}
		}
	}
	return out
}

// makeCgroupRoot creates root in every hierarchy (the kubelet refuses a cgroupRoot that does not
// exist: "invalid configuration: cgroup-root ... doesn't exist"); cpuset needs cpus and mems first.
func makeCgroupRoot(root string) error {
	for _, m := range cgroupMounts() {
		dir := filepath.Join(m, root)
		if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
			return fmt.Errorf("create cgroup %s: %w", dir, err)
		}
		for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
			if v, err := os.ReadFile(filepath.Join(m, f)); err == nil {
				if _, statErr := os.Stat(filepath.Join(dir, f)); statErr == nil {
					_ = os.WriteFile(filepath.Join(dir, f), v, 0o644)
				}
			}
		}
	}
	return nil
}

// killCgroupProcesses SIGKILLs every process in root's tree (every hierarchy) until none is left.
func killCgroupProcesses(root string, logf func(string, ...any)) {
	deadline := time.Now().Add(15 * time.Second)
	for {
		pids := map[int]bool{}
		for _, m := range cgroupMounts() {
			_ = filepath.WalkDir(filepath.Join(m, root), func(p string, d os.DirEntry, err error) error {
				if err != nil || !d.IsDir() {
					return nil
				}
				data, _ := os.ReadFile(filepath.Join(p, "cgroup.procs"))
				for _, f := range strings.Fields(string(data)) {
					if pid, err := strconv.Atoi(f); err == nil {
						pids[pid] = true
					}
				}
				return nil
			})
		}
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			logf("processes still in %s after 15 s: %v", root, pids)
			return
		}
		for pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// removeCgroupTree removes root and everything below it, deepest first, in every hierarchy.
func removeCgroupTree(root string, logf func(string, ...any)) {
	for _, m := range cgroupMounts() {
		top := filepath.Join(m, root)
		var dirs []string
		_ = filepath.WalkDir(top, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
		for _, d := range dirs {
			var err error
			for try := 0; try < 50; try++ { // a cgroup whose last task is still exiting is busy for a moment
				if err = syscall.Rmdir(d); err == nil || errors.Is(err, syscall.ENOENT) {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if err != nil && !errors.Is(err, syscall.ENOENT) {
				logf("rmdir %s: %v", d, err)
			}
		}
	}
}

// deleteBridge deletes a network interface by name through rtnetlink (RTM_DELLINK), as `ip link del` does.
func deleteBridge(name string, logf func(string, ...any)) {
	iface, err := net.InterfaceByName(name)
	if err != nil {
		return // not there
	}
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		logf("delete %s: %v", name, err)
		return
	}
	defer unix.Close(fd)
	msg := make([]byte, unix.SizeofNlMsghdr+unix.SizeofIfInfomsg)
	hdr := (*unix.NlMsghdr)(unsafe.Pointer(&msg[0]))
	hdr.Len = uint32(len(msg))
	hdr.Type = unix.RTM_DELLINK
	hdr.Flags = unix.NLM_F_REQUEST | unix.NLM_F_ACK
	hdr.Seq = 1
	info := (*unix.IfInfomsg)(unsafe.Pointer(&msg[unix.SizeofNlMsghdr]))
	info.Family = unix.AF_UNSPEC
	info.Index = int32(iface.Index)
	if err := unix.Sendto(fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		logf("delete %s: %v", name, err)
		return
	}
	buf := make([]byte, 4096)
	if n, _, err := unix.Recvfrom(fd, buf, 0); err == nil && n >= unix.SizeofNlMsghdr+4 {
		if errno := int32(binary.NativeEndian.Uint32(buf[unix.SizeofNlMsghdr:])); errno != 0 {
			logf("delete %s: %v", name, syscall.Errno(-errno))
		}
	}
}

// killOrphans SIGKILLs and reaps what is left of the node: children re-parented to this subreaper
// (containerd's shims once containerd is gone) and any process whose command line names the state folder.
func killOrphans(dir string, logf func(string, ...any)) {
	self := os.Getpid()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var found []int
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == self {
				continue
			}
			stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if err != nil {
				continue
			}
			cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if parentOf(stat) == self || bytes.Contains(cmdline, []byte(dir+"/")) {
				found = append(found, pid)
			}
		}
		for _, pid := range found {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for { // reap
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
		if len(found) == 0 {
			return
		}
		if time.Now().After(deadline) {
			logf("processes left after 10 s: %v", found)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// parentOf reads the ppid from /proc/PID/stat ("pid (comm) state ppid ...", comm may hold spaces).
func parentOf(stat []byte) int {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// removeStateExceptLogs empties the state folder but keeps *.log (for a failed test's post-mortem).
// Mounts under it (containerd's overlays, netns files) are detached first: they exist only in this
// namespace, but RemoveAll must not descend into a live overlay.
func removeStateExceptLogs(dir string, logf func(string, ...any)) {
	unmountUnder(dir)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".log") {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			logf("remove %s: %v", e.Name(), err)
		}
	}
}

// unmountUnder lazily detaches every mount (of this namespace) at or below one of prefixes, deepest first.
func unmountUnder(prefixes ...string) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return
	}
	var points []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		p := unescapeMountPath(fields[4])
		for _, pre := range prefixes {
			if p == pre || strings.HasPrefix(p, pre+"/") {
				points = append(points, p)
			}
		}
	}
	f.Close()
	sort.Slice(points, func(i, j int) bool { return len(points[i]) > len(points[j]) })
	for _, p := range points {
		_ = syscall.Unmount(p, syscall.MNT_DETACH)
	}
}

// unescapeMountPath undoes mountinfo's octal escapes (\040 for a space).
func unescapeMountPath(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hostChanges binds this node's files and folders over the sysctls and fixed paths (private namespace).
type hostChanges struct {
	dir    string
	logf   func(string, ...any)
	points []string // mount points made, in order
}

func (h *hostChanges) isolate(slot *nodeSlot) error {
	if err := makeCgroupRoot(slot.cgroupRoot); err != nil {
		return err
	}
	sysctlDir := filepath.Join(h.dir, "sysctl")
	if err := os.MkdirAll(sysctlDir, 0o755); err != nil {
		return err
	}
	for _, key := range nodeSysctls {
		src := filepath.Join("/proc/sys", key)
		value, err := os.ReadFile(src)
		if err != nil {
			continue // not on this kernel
		}
		file := filepath.Join(sysctlDir, strings.ReplaceAll(key, "/", "."))
		if err := os.WriteFile(file, value, 0o644); err != nil {
			return err
		}
		if err := syscall.Mount(file, src, "", syscall.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind %s over %s: %w", file, src, err)
		}
		h.points = append(h.points, src)
	}
	overlaid := map[string]bool{}
	for _, p := range nodeFixedPaths {
		if _, err := os.Stat(p); os.IsNotExist(err) {
			anc := filepath.Dir(p)
			for {
				if _, err := os.Stat(anc); err == nil {
					break
				}
				anc = filepath.Dir(anc)
			}
			if !overlaid[anc] {
				if err := h.overlay(anc); err != nil {
					return err
				}
				overlaid[anc] = true
			}
			if err := os.MkdirAll(p, 0o755); err != nil {
				return fmt.Errorf("create %s in the overlay of %s: %w", p, anc, err)
			}
		}
		own := filepath.Join(h.dir, "fixed", strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", "-"))
		if err := os.MkdirAll(own, 0o755); err != nil {
			return err
		}
		if err := syscall.Mount(own, p, "", syscall.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind %s over %s: %w", own, p, err)
		}
		h.points = append(h.points, p)
	}
	return nil
}

// overlay mounts an overlay over dir whose lower layer is dir itself: what the node creates there
// lands in its upper layer under the state folder.
func (h *hostChanges) overlay(dir string) error {
	base := filepath.Join(h.dir, "overlay", strings.ReplaceAll(strings.TrimPrefix(dir, "/"), "/", "-"))
	upper, work := filepath.Join(base, "upper"), filepath.Join(base, "work")
	for _, d := range []string{upper, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	opts := fmt.Sprintf("lowerdir=%s,upperdir=%s,workdir=%s", dir, upper, work)
	if err := syscall.Mount("overlay", dir, "overlay", 0, opts); err != nil {
		return fmt.Errorf("overlay over %s: %w", dir, err)
	}
	h.points = append(h.points, dir)
	h.logf("overlay over %s (upper %s)", dir, upper)
	return nil
}

// undo detaches the binds and overlays (they would also go with the namespace).
func (h *hostChanges) undo() {
	for i := len(h.points) - 1; i >= 0; i-- {
		unmountUnder(h.points[i])
	}
}
