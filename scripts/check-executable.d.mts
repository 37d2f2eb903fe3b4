// Types for check-executable.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export declare function checkExecutable(platform: string, path: string, scripts: string[]): Promise<string>;
