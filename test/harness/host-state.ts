// What a real node may touch on this host, read from the host's side (this process is in the
// host's mount namespace): for the hygiene test (test/integration/kubelet-node-hygiene.test.ts).
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { RealNodeInfo } from './kubelet-node.ts';

/** The sysctls the kubelet (setupKernelTunables) and the CNI bridge plugin (isGateway) write. */
export const NODE_SYSCTLS = [
  'vm/overcommit_memory', 'vm/panic_on_oom', 'kernel/panic', 'kernel/panic_on_oops',
  'kernel/keys/root_maxkeys', 'kernel/keys/root_maxbytes', 'net/ipv4/ip_forward',
];
/** Paths the kubelet, containerd and libcni use whatever their configuration says. */
export const NODE_FIXED_PATHS = ['/var/lib/kubelet', '/var/log/containers', '/var/log/pods', '/var/lib/cni', '/run/containerd', '/run/netns'];

export interface HostState {
  sysctls: Record<string, string>;
  fixedPaths: Record<string, boolean>;
  /** Lines of /proc/self/mountinfo (host namespace) naming kubelet, containerd, a node folder or a fixed path. */
  nodeMounts: string[];
}

export function hostState(): HostState {
  const sysctls: Record<string, string> = {};
  for (const k of NODE_SYSCTLS) {
    try {
      sysctls[k] = readFileSync(join('/proc/sys', k), 'utf8').trim();
    } catch {
      /* not on this kernel */
    }
  }
  const fixedPaths: Record<string, boolean> = {};
  for (const p of NODE_FIXED_PATHS) fixedPaths[p] = existsSync(p);
  const nodeMounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((l) => /kubelet|containerd|kubelet-node-|\/var\/log\/pods|\/var\/lib\/cni|\/run\/netns/.test(l));
  return { sysctls, fixedPaths, nodeMounts };
}

/** The cgroup (v1 controller or v2) mount points. */
export function cgroupMounts(): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' '))
    .filter((f) => {
      const dash = f.indexOf('-');
      return dash > 0 && (f[dash + 1] === 'cgroup' || f[dash + 1] === 'cgroup2');
    })
    .map((f) => f[4] as string);
}

/** Every cgroup folder of the node's root that exists, in any hierarchy. */
export function nodeCgroups(node: RealNodeInfo): string[] {
  return cgroupMounts()
    .map((m) => join(m, node.cgroupRoot))
    .filter((d) => existsSync(d));
}

/** Interfaces whose master is the node's bridge (the pods' veths), and the bridge itself. */
export function nodeInterfaces(node: RealNodeInfo): string[] {
  const out: string[] = [];
  for (const name of readdirSync('/sys/class/net')) {
    if (name === node.bridge) out.push(name);
    else {
      try {
        if (readlinkSync(join('/sys/class/net', name, 'master')).endsWith(`/${node.bridge}`)) out.push(name);
      } catch {
        /* no master */
      }
    }
  }
  return out;
}

/** Live processes that belong to the node: its supervisor, kubelet, containerd, or naming its folder. */
export function nodeProcesses(node: RealNodeInfo): string[] {
  const out: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
      if (/\) Z /.test(stat)) continue; // a zombie is only a parent's bookkeeping
      const cmdline = readFileSync(join('/proc', entry, 'cmdline'), 'utf8').replaceAll('\0', ' ');
      const pid = Number(entry);
      if ([node.pid, node.kubeletPid, node.containerdPid].includes(pid) || cmdline.includes(node.dir)) out.push(`${pid} ${cmdline.trim()}`);
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}
