// Types for build-node.mjs.
export declare const CONTAINERD_VERSION: string;
export declare const CNI_PLUGINS_VERSION: string;
export declare function ensureContainerd(): Promise<string>;
export declare function ensureCniPlugins(): Promise<string>;
export declare function ensurePodTools(): Promise<string>;
export declare function ensureNodeBinaries(): Promise<{ containerdDir: string; cniDir: string; podTools: string }>;
