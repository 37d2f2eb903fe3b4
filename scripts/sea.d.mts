// Types for sea.mjs (a plain Node ESM script so build.mjs can run it without tsx).
export declare const SEA_FUSE: string;
export declare const CLIENT_NODE_CHUNK: string;
export declare const YAML_CHUNK: string;
export declare const OTLP_CHUNK: string;
export declare const VERBS_CHUNK: string;
export declare const SEA_EXEC_ARGV: string[];
export declare function chunkAssets(dir: string, opts?: { codeCache?: boolean }): Record<string, string>;
export declare function pinnedNodeBinary(): { binary: string; version: string };
export declare function buildSea(opts: {
  bundle: string;
  assets?: Record<string, string>;
  output: string;
  nodeBinary: string;
  generator?: string;
  useCodeCache?: boolean;
  strip?: string | false;
}): Promise<void>;
