// Types for node-binaries.mjs (a plain Node ESM script so npm scripts can run it without tsx).
import type { PlatformEntry } from './platforms.mjs';
export declare function nodeBinaryFor(entry: PlatformEntry, version: string): Promise<string>;
