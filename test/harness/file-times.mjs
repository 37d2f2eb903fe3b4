// A second test reporter: where the suite's time goes, one line per test file, slowest first.
// The suite runs its files one at a time (one control plane), so a file's span is the time from
// its first event to its last; the gap before the first event is the file's own start-up and is
// charged to it too (measured from the previous file's last event).
export default async function* fileTimes(source) {
  const spans = new Map();
  let last = Date.now();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file || event.type === 'test:diagnostic' || event.type === 'test:coverage') continue;
    const now = Date.now();
    const span = spans.get(file) ?? { start: last, end: now, tests: 0 };
    span.end = now;
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) span.tests += 1;
    spans.set(file, span);
    last = now;
  }
  const rows = [...spans].map(([file, s]) => [file.replace(`${process.cwd()}/`, ''), (s.end - s.start) / 1000, s.tests]);
  rows.sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, r) => sum + r[1], 0);
  yield `\nseconds per file (${rows.length} files, ${total.toFixed(0)} s):\n`;
  for (const [file, seconds] of rows) yield `${seconds.toFixed(1).padStart(8)}  ${file}\n`;
}
