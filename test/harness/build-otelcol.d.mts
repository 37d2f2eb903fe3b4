// Types for build-otelcol.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export declare const otelcolSourceDir: string;
export declare const COLLECTORS: string[];
export declare function ensureOtelcol(name?: 'otelcol' | 'otelcol-k8s'): Promise<string>;
