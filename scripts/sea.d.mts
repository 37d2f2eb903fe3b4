// Types for sea.mjs (a plain Node ESM script so build.mjs can run it without tsx).
export declare const SEA_FUSE: string;
export declare const CLIENT_NODE_CHUNK: string;
export declare function pinnedNodeBinary(): { binary: string; version: string };
export declare function buildSea(opts: {
  bundle: string;
  output: string;
  nodeBinary: string;
  generator?: string;
  useCodeCache?: boolean;
  strip?: string | false;
}): Promise<void>;
