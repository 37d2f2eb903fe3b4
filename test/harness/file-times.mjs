// A second test reporter: where the suite's time goes, one line per test file, slowest first.
// The suite runs its files one at a time (one control plane), so a file's time is from the moment
// the file before it ended to its own last event. Enqueue events are left out: the runner queues
// every file at the start, which would make each file's span begin there.
export default async function* fileTimes(source) {
  const ended = new Map();
  const started = Date.now();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file || event.type === 'test:enqueue' || event.type === 'test:diagnostic' || event.type === 'test:coverage') continue;
    ended.set(file, Date.now());
  }
  const order = [...ended].sort((a, b) => a[1] - b[1]);
  const rows = order.map(([file, end], i) => [file.replace(`${process.cwd()}/`, ''), (end - (i === 0 ? started : order[i - 1][1])) / 1000]);
  rows.sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, r) => sum + r[1], 0);
  yield `\nseconds per file (${rows.length} files, ${total.toFixed(0)} s, each from the end of the file before it):\n`;
  for (const [file, seconds] of rows) yield `${seconds.toFixed(1).padStart(8)}  ${file}\n`;
}
