// Types for node-prerequisites.mjs.
export declare function missingForRealNode(): string | undefined;
