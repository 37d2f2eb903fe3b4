// Types for macho.mjs (a plain Node ESM script so npm scripts can run it without tsx).
export interface MachOSection { sectname: string; size: number; offset: number }
export interface MachOCommand {
  cmd: number;
  cmdsize: number;
  offset: number;
  segname?: string;
  fileoff?: number;
  filesize?: number;
  sections?: MachOSection[];
  dataoff?: number;
  datasize?: number;
}
export declare const CPU_TYPE: { x86_64: number; arm64: number };
export declare function readMachO(bytes: Buffer): { header: { cputype: number; filetype: number; ncmds: number; sizeofcmds: number }; commands: MachOCommand[] };
export declare function machOSection(bytes: Buffer, segname: string, sectname: string): Buffer | undefined;
export declare function removeSignature(path: string): Promise<void>;
export declare function verifySignature(bytes: Buffer): { algorithm: string; pages: number; pageSize: number; adhoc: boolean; runtime: boolean; identifier: string }[];
