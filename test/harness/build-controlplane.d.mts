// Types for build-controlplane.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export declare const controlPlaneSourceDir: string;
export declare function findGo(): { go: string; version: string };
export declare function ensureControlPlane(): Promise<string>;
