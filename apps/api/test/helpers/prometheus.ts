/**
 * A reader of Prometheus' text exposition format (version 0.0.4, what prom-client writes), for
 * tests: `# TYPE` lines and samples `name{label="value",...} number`.
 */
export interface Scrape {
  types: Map<string, string>;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheus(text: string): Scrape {
  const scrape: Scrape = { types: new Map(), samples: [] };
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      if (name && type) scrape.types.set(name, type);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL))
      labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    if (Number.isNaN(value) && m[3] !== 'NaN') throw new Error(`bad value in ${line}`);
    scrape.samples.push({ name: m[1]!, labels, value });
  }
  return scrape;
}

/** The first sample of `name` whose labels include `labels`; undefined when none. */
export function sampleValue(
  scrape: Scrape,
  name: string,
  labels: Record<string, string>,
): number | undefined {
  return scrape.samples.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;
}
