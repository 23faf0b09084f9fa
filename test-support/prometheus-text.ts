/**
 * A parser of the Prometheus text exposition format (version 0.0.4), for tests that scrape
 * /metrics: prom-client only writes the format. Strict on purpose: a line it cannot read throws,
 * so a malformed exposition fails the test that scraped it.
 */

export interface PrometheusSample {
  /** The sample's own name (e.g. `quern_http_request_duration_seconds_bucket`). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PrometheusFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: PrometheusSample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+(-?\\d+))?$`);
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
/** The suffixes a histogram's or summary's samples add to the family name. */
const SUFFIXES = ['_bucket', '_sum', '_count'];

function unescapeText(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`Unreadable labels in: ${line}`);
    labels[match[1] as string] = unescapeText(match[2] as string);
    if (match[3] === '') break;
  }
  return labels;
}

/** Go's ParseFloat, which Prometheus uses, reads NaN and Inf in any case (prom-client writes `Nan`). */
function parseValue(text: string, line: string): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Number.POSITIVE_INFINITY;
  if (lower === '-inf') return Number.NEGATIVE_INFINITY;
  if (lower === 'nan') return Number.NaN;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`Unreadable value in: ${line}`);
  return value;
}

/** The families of an exposition by name, in order of appearance. */
export function parsePrometheusText(text: string): Map<string, PrometheusFamily> {
  const families = new Map<string, PrometheusFamily>();
  const familyOf = (name: string): PrometheusFamily => {
    let family = families.get(name);
    if (!family) {
      family = { name, type: 'untyped', help: '', samples: [] };
      families.set(name, family);
    }
    return family;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const meta = new RegExp(`^#\\s+(HELP|TYPE)\\s+(${NAME})(?:\\s+(.*))?$`).exec(line);
      if (!meta) continue; // a plain comment
      const family = familyOf(meta[2] as string);
      if (meta[1] === 'HELP') family.help = unescapeText(meta[3] ?? '');
      else {
        const type = meta[3] ?? '';
        if (!TYPES.has(type)) throw new Error(`Unknown metric type in: ${line}`);
        family.type = type as PrometheusFamily['type'];
      }
      continue;
    }
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`Unreadable sample: ${line}`);
    const name = match[1] as string;
    const sample = { name, labels: match[2] ? parseLabels(match[2], line) : {}, value: parseValue(match[3] as string, line) };
    // A histogram's _bucket/_sum/_count samples belong to the family declared without the suffix.
    const suffix = SUFFIXES.find((s) => name.endsWith(s));
    const base = suffix ? name.slice(0, -suffix.length) : undefined;
    const declared = base !== undefined ? families.get(base) : undefined;
    const family = declared && (declared.type === 'histogram' || declared.type === 'summary') ? declared : familyOf(name);
    family.samples.push(sample);
  }
  return families;
}

/** The value of the first sample of that name carrying these labels (others may be present); undefined when absent. */
export function sampleValue(
  families: Map<string, PrometheusFamily>,
  sampleName: string,
  labels: Record<string, string> = {},
  familyName = sampleName,
): number | undefined {
  const family = families.get(familyName);
  const wanted = Object.entries(labels);
  return family?.samples.find((s) => s.name === sampleName && wanted.every(([k, v]) => s.labels[k] === v))?.value;
}
