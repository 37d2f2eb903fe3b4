// Types for package.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export declare const DIST: string;
export declare const MANIFEST_TEMPLATE: string;
export declare const FILLED_MANIFEST: string;
export declare function archiveName(version: string, platform: string): string;
export declare function releaseUri(version: string, archive: string): string;
export declare function fillManifest(template: string, version: string, sha256For: (platform: string) => string): string;
export declare function manifestPlatforms(text: string): string[];
export declare function sha256File(path: string): Promise<string>;
export declare function writeArchive(files: { from: string; name: string; mode: number }[], out: string): Promise<string>;
