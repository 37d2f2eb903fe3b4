// Types for file-times.mjs (a test reporter, loaded by node:test as plain ESM).
export declare const FILE_SECONDS: string;
export declare function recordedFileSeconds(): Record<string, number>;
export default function fileTimes(source: AsyncIterable<unknown>): AsyncGenerator<string>;
