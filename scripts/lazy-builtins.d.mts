// Types for lazy-builtins.mjs (a plain Node ESM script so build.mjs can run it without tsx).
import type { Plugin } from 'esbuild';
export declare const EAGER_BUILTINS: Set<string>;
export declare const lazyBuiltins: Plugin;
