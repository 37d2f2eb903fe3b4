// Filled in by build.mjs (esbuild define); the fallbacks apply when running from source with tsx.
declare const __EVTIMELINE_VERSION__: string | undefined;
declare const __EVTIMELINE_COMMIT__: string | undefined;

export const VERSION = typeof __EVTIMELINE_VERSION__ === 'string' ? __EVTIMELINE_VERSION__ : '0.0.0-dev';
const COMMIT = typeof __EVTIMELINE_COMMIT__ === 'string' ? __EVTIMELINE_COMMIT__ : 'unknown';

export function versionText(): string {
  return `kubectl-evtimeline v${VERSION} (commit ${COMMIT}, node ${process.version})`;
}
