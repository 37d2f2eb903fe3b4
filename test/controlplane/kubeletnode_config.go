package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// nodeConfig writes containerd's config (v3, containerd 2.x), the CNI conflist and the
// KubeletConfiguration of one real node into its state folder.
type nodeConfig struct {
	dir              string
	name             string
	nodeIP           string
	port             int
	slot             *nodeSlot
	clientCA         string
	cniDir           string
	maxRestartPeriod time.Duration
}

func (c nodeConfig) containerdConfig() string { return filepath.Join(c.dir, "containerd.toml") }
func (c nodeConfig) containerdSocket() string {
	return filepath.Join(c.dir, "containerd", "containerd.sock")
}
func (c nodeConfig) kubeletConfig() string { return filepath.Join(c.dir, "kubelet.yaml") }

const pauseImage = "registry.k8s.io/pause:3.10.1"

func (c nodeConfig) write() error {
	d := c.dir
	for _, sub := range []string{"containerd", "cni/net.d", "cni/ipam", "kubelet", "pki", "volume-plugins", "runc"} {
		if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
			return err
		}
	}
	// restrict_oom_score_adj: runc cannot lower oom_score_adj without CAP_SYS_RESOURCE (this VM's
	// root lacks it: "failed to update /proc/self/oom_score_adj: Permission denied"); containerd then
	// clamps every score to its own. netns_mounts_under_state_dir keeps /run/netns untouched.
	// No [cgroup] section: the pods' cgroups come from the kubelet (cgroupRoot below).
	containerd := fmt.Sprintf(`version = 3
root = %[1]q
state = %[2]q
disabled_plugins = ["io.containerd.nri.v1.nri", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.erofs"]
[grpc]
  address = %[3]q
[ttrpc]
  address = %[4]q
[plugins.'io.containerd.cri.v1.images']
  snapshotter = 'overlayfs'
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    sandbox = %[5]q
[plugins.'io.containerd.cri.v1.runtime']
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = [%[6]q]
    conf_dir = %[7]q
  [plugins.'io.containerd.cri.v1.runtime'.containerd]
    default_runtime_name = 'runc'
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
      runtime_type = 'io.containerd.runc.v2'
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = %[8]q
[plugins.'io.containerd.internal.v1.opt']
  path = %[9]q
`, filepath.Join(d, "containerd", "root"), filepath.Join(d, "containerd", "state"), c.containerdSocket(),
		c.containerdSocket()+".ttrpc", pauseImage, c.cniDir, filepath.Join(d, "cni", "net.d"),
		filepath.Join(d, "runc"), filepath.Join(d, "containerd", "opt"))
	conflist := fmt.Sprintf(`{"cniVersion":"1.0.0","name":"evtimeline-node","plugins":[`+
		`{"type":"bridge","bridge":%q,"isGateway":true,"ipMasq":false,"hairpinMode":true,`+
		`"ipam":{"type":"host-local","ranges":[[{"subnet":%q,"gateway":%q}]],"dataDir":%q}},`+
		`{"type":"loopback"}]}`+"\n", c.slot.bridge, c.slot.podCIDR, c.slot.gateway, filepath.Join(d, "cni", "ipam"))
	key, value, effect := splitTaint(realNodeTaint)
	// authentication: only clients with a certificate of up's client CA (the apiserver's
	// --kubelet-client-certificate) reach the kubelet's API, which listens on the host's address.
	kubelet := fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
failSwapOn: false
cgroupDriver: cgroupfs
cgroupRoot: %[1]q
containerRuntimeEndpoint: unix://%[2]s
address: %[3]q
port: %[4]d
readOnlyPort: 0
healthzPort: 0
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: %[5]q}
authorization: {mode: AlwaysAllow}
clusterDNS: ["10.0.0.10"]
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
podLogsDir: %[6]q
volumePluginDir: %[7]q
makeIPTablesUtilChains: false
registerWithTaints:
- {key: %[8]q, value: %[9]q, effect: %[10]q}
evictionHard: {memory.available: "100Mi", nodefs.available: "1%%", imagefs.available: "1%%", nodefs.inodesFree: "1%%"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
crashLoopBackOff: {maxContainerRestartPeriod: %[11]q}
`, c.slot.cgroupRoot, c.containerdSocket(), c.nodeIP, c.port, c.clientCA, "/var/log/pods",
		filepath.Join(d, "volume-plugins"), key, value, effect, c.maxRestartPeriod.String())
	for path, data := range map[string]string{
		c.containerdConfig(): containerd,
		filepath.Join(d, "cni", "net.d", "10-node.conflist"): conflist,
		c.kubeletConfig(): kubelet,
	} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// splitTaint: "key=value:Effect".
func splitTaint(t string) (key, value, effect string) {
	kv, effect, _ := strings.Cut(t, ":")
	key, value, _ = strings.Cut(kv, "=")
	return key, value, effect
}
