// Types for build-controlplane.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export declare const controlPlaneSourceDir: string;
export declare function findGo(): { go: string; version: string };
export declare function ensureControlPlane(): Promise<string>;
export declare function ensureGoBinary(spec: { name: string; sourceDir: string; ldflags: string; log: (msg: string) => void; pkg?: string; env?: Record<string, string> }): Promise<string>;
