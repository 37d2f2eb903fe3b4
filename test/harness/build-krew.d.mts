// Types for build-krew.mjs (a plain Node ESM script so it runs without tsx).
export declare const krewSourceDir: string;
export declare function ensureKrew(target?: { goarch?: string }): Promise<{ krew: string; validator: string; dir: string }>;
