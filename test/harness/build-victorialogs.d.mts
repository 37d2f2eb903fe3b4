// Types for build-victorialogs.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export declare const victoriaLogsSourceDir: string;
export declare function ensureVictoriaLogs(): Promise<string>;
