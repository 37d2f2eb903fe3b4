// cli-table3 ships types for its Table only; this is the one helper we borrow from it, so that
// column widths are measured exactly as cli-table3 measures them (ANSI codes and wide characters).
declare module 'cli-table3/src/utils.js' {
  export function strlen(text: string): number;
}
