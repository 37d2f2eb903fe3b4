// Exec credential plugins (client.authentication.k8s.io/v1 and v1beta1), as client-go runs them
// (k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go): how EKS (`aws eks get-token`), GKE
// (`gke-gcloud-auth-plugin`) and AKS (`kubelogin`) clusters authenticate. client-node's own runner
// sets no KUBERNETES_EXEC_INFO, ignores interactiveMode, never connects stdin and does not check
// the answer's apiVersion, so plugins that ask for a login, or read their mode from the
// environment, misbehave under it.
//
// What client-go does, and so this does:
// - KUBERNETES_EXEC_INFO holds an ExecCredential whose spec.interactive says whether the plugin may
//   talk to the user; `cluster` is added only with provideClusterInfo.
// - interactiveMode (required in v1): Never (stdin not connected), IfAvailable (connected when it is
//   a terminal), Always (an error when it is not a terminal).
// - The plugin's stderr goes to ours (its last line also ends our error when it fails); stdout must be one ExecCredential of the configured apiVersion,
//   with status.token or both status.clientCertificateData and status.clientKeyData.
// - A credential is reused until status.expirationTimestamp, for the life of the process when it
//   has none; one that has expired runs the plugin again, and so does one the server refused (401:
//   roundTripper.RoundTrip calls maybeRefreshCreds), for the next request.
import { dirname, isAbsolute, join } from 'node:path';
import { CredentialProblem } from './credential-error.ts';
import type { LocalCredentialError } from './credential-error.ts';

export interface ExecConfig {
  apiVersion?: string;
  command: string;
  args?: string[];
  env?: Array<{ name: string; value: string }> | null;
  interactiveMode?: string;
  installHint?: string;
  provideClusterInfo?: boolean;
}

export interface ExecCredential {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** ms since the epoch; undefined: valid for the life of the process */
  expiresAt?: number;
}

interface ExecContext {
  user: string;
  /** the cluster, for provideClusterInfo */
  server: string;
  caData?: string;
  tlsServerName?: string;
  insecureSkipTlsVerify?: boolean;
  stdinIsTTY: boolean;
  env: Record<string, string | undefined>;
  now(): number;
  /** the plugin's stderr, passed through as it comes (prompts, warnings) */
  stderr(text: string): void;
}

const VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

/**
 * A relative command with a path separator is relative to the kubeconfig that names it, as
 * client-go resolves it (clientcmd ResolvePaths); a bare name is looked up on PATH.
 */
export function resolveExecCommand(command: string, kubeconfigPath: string): string {
  if (isAbsolute(command) || !command.includes('/')) return command;
  return join(dirname(kubeconfigPath), command);
}

/** The plugin gave no credential: final, even under -w (credential-error.ts). */
function fail(ctx: ExecContext, exec: ExecConfig, why: string): LocalCredentialError {
  return new CredentialProblem({ kind: 'exec-plugin', command: exec.command, user: ctx.user, why });
}

function interactive(exec: ExecConfig, ctx: ExecContext): boolean {
  const mode = exec.interactiveMode ?? (exec.apiVersion === VERSIONS[0] ? undefined : 'IfAvailable');
  if (mode === undefined) throw fail(ctx, exec, 'interactiveMode must be specified to use exec authentication plugin (client.authentication.k8s.io/v1)');
  if (mode === 'Never') return false;
  if (mode === 'IfAvailable') return ctx.stdinIsTTY;
  if (mode === 'Always') {
    if (!ctx.stdinIsTTY) throw fail(ctx, exec, 'interactiveMode is Always, but standard input is not a terminal');
    return true;
  }
  throw fail(ctx, exec, `invalid interactiveMode ${JSON.stringify(mode)}: want Never, IfAvailable or Always`);
}

function execInfo(exec: ExecConfig, ctx: ExecContext, isInteractive: boolean): string {
  const spec: Record<string, unknown> = { interactive: isInteractive };
  if (exec.provideClusterInfo) {
    spec.cluster = {
      server: ctx.server,
      ...(ctx.tlsServerName ? { 'tls-server-name': ctx.tlsServerName } : {}),
      ...(ctx.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
      ...(ctx.caData ? { 'certificate-authority-data': ctx.caData } : {}),
    };
  }
  return JSON.stringify({ kind: 'ExecCredential', apiVersion: exec.apiVersion, spec });
}

function parseCredential(stdout: string, exec: ExecConfig, ctx: ExecContext): ExecCredential {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw fail(ctx, exec, 'it printed something that is not a JSON ExecCredential');
  }
  const obj = (parsed ?? {}) as { apiVersion?: unknown; kind?: unknown; status?: Record<string, unknown> };
  if (obj.apiVersion !== exec.apiVersion) {
    throw fail(ctx, exec, `exec plugin is configured to use API version ${exec.apiVersion}, plugin returned version ${String(obj.apiVersion ?? '')}`);
  }
  const status = obj.status;
  if (typeof status !== 'object' || status === null) throw fail(ctx, exec, "exec plugin didn't return a status field");
  const str = (key: string): string | undefined => (typeof status[key] === 'string' && status[key] !== '' ? (status[key] as string) : undefined);
  const token = str('token');
  const cert = str('clientCertificateData');
  const key = str('clientKeyData');
  if ((cert === undefined) !== (key === undefined)) throw fail(ctx, exec, 'exec plugin returned only certificate or key, not both');
  if (token === undefined && cert === undefined) throw fail(ctx, exec, "exec plugin didn't return a token or cert/key pair");
  const expiry = str('expirationTimestamp');
  const expiresAt = expiry === undefined ? undefined : Date.parse(expiry);
  if (expiresAt !== undefined && Number.isNaN(expiresAt)) throw fail(ctx, exec, `expirationTimestamp ${JSON.stringify(expiry)} is not an RFC 3339 time`);
  return { token, clientCertificateData: cert, clientKeyData: key, expiresAt };
}

/** Runs the plugin once and reads its credential. */
async function runExecPlugin(exec: ExecConfig, ctx: ExecContext): Promise<ExecCredential> {
  if (!exec.command) throw fail(ctx, exec, 'exec.command is empty');
  if (exec.apiVersion === undefined || !VERSIONS.includes(exec.apiVersion)) {
    throw fail(ctx, exec, `exec plugin: invalid apiVersion ${JSON.stringify(exec.apiVersion ?? '')}`);
  }
  const isInteractive = interactive(exec, ctx);
  const env: Record<string, string | undefined> = { ...ctx.env };
  for (const { name, value } of exec.env ?? []) env[name] = value;
  env.KUBERNETES_EXEC_INFO = execInfo(exec, ctx, isInteractive);
  // Loaded here, not imported: node:child_process (with node:net and the streams behind it) is a
  // fifth of what --version and --help cost at start-up, and only exec credentials spawn anything.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(exec.command, exec.args ?? [], { env, stdio: [isInteractive ? 'inherit' : 'ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderrTail = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    ctx.stderr(chunk);
    stderrTail = (stderrTail + chunk).slice(-4096);
  });
  const code = await new Promise<number | string>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    child.on('close', (exitCode, signal) => resolve(exitCode ?? signal ?? 'killed'));
  });
  if (code === 'ENOENT') {
    const hint = (exec.installHint ?? '').trim().split('\n')[0];
    throw fail(ctx, exec, `executable not found${hint ? ` (${hint})` : ''}`);
  }
  if (typeof code === 'string') throw fail(ctx, exec, `could not run it: ${code}`);
  if (code !== 0) {
    // Its last words name the cause (an expired SSO session, a missing login): kept in the one line.
    const last = stderrTail.trim().split('\n').at(-1)?.trim() ?? '';
    throw fail(ctx, exec, `it failed with exit code ${code}${last ? `: ${last}` : ''}`);
  }
  return parseCredential(stdout, exec, ctx);
}

/**
 * Credentials of one process, per plugin configuration: reused until they expire, or until the
 * server refuses them (401), after which the next request runs the plugin again: client-go's
 * roundTripper calls maybeRefreshCreds on a 401, unless the credential was already rotated.
 */
export class ExecCredentialCache {
  private readonly entries = new Map<string, { running: Promise<ExecCredential>; credential?: ExecCredential }>();

  async get(exec: ExecConfig, ctx: ExecContext): Promise<ExecCredential> {
    const key = JSON.stringify([exec, ctx.server, ctx.user]);
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      const credential = await cached.running.catch(() => undefined);
      if (credential !== undefined && (credential.expiresAt === undefined || credential.expiresAt > ctx.now()) && this.entries.get(key) === cached) return credential;
    }
    // Concurrent requests share one run of the plugin.
    const entry: { running: Promise<ExecCredential>; credential?: ExecCredential } = { running: runExecPlugin(exec, ctx) };
    entry.running.then((credential) => (entry.credential = credential), () => {});
    this.entries.set(key, entry);
    return entry.running;
  }

  /** The server refused `credential`: the next request runs its plugin again (unless it has already). */
  refused(credential: ExecCredential): void {
    for (const [key, entry] of this.entries) if (entry.credential === credential) this.entries.delete(key);
  }
}
