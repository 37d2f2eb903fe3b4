// Types for prerequisites.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export interface Prerequisite {
  tool: string;
  why?: string;
  for: string[];
  present?(env: NodeJS.ProcessEnv): boolean;
  missing?(env: NodeJS.ProcessEnv): string | undefined;
  get?: string;
  /** the Debian packages that bring it (installed by --install as root) */
  apt?: string[];
  /** run after installing, where installing alone does not make it present */
  after?(): void;
}
export declare const PREREQUISITES: Prerequisite[];
export declare function onPath(name: string, path?: string): boolean;
export declare function missingFor(purposes: string[], env?: NodeJS.ProcessEnv): string[];
export declare function packagesFor(purposes: string[], env?: NodeJS.ProcessEnv): string[];
