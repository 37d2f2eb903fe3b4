// Types for pe.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export declare const MACHINE: { amd64: number; arm64: number };
export declare function readPE(bytes: Buffer): {
  machine: number;
  subsystem: number;
  checksumAt: number;
  securityEntryAt: number;
  security: { offset: number; size: number };
};
export declare function removeSignature(path: string): Promise<void>;
