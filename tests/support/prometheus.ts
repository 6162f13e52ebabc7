// Reading a Prometheus text exposition (GET /metrics) in tests.

/** The value of one sample: `name{labels}` with every given label equal, summed over the rest. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let seen = false;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) {
      total += Number(m[3]);
      seen = true;
    }
  }
  return seen ? total : NaN;
}
