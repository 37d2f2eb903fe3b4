// Types for platforms.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export interface PlatformEntry {
  platform: string;
  npmPackage: string;
  binary: string;
  executable: string;
  strip: string | false;
}
export declare const PLATFORMS: PlatformEntry[];
export declare const INTEGRITY: Record<string, string>;
export declare function hostPlatform(): string;
export declare function archiveFiles(entry: PlatformEntry): string[];
