import { describe, expect, it } from 'vitest';
import { Counter, Histogram, Registry } from 'prom-client';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';

describe('parsePrometheusText', () => {
  it('reads what prom-client writes: types, help, labels with escapes, histogram samples under their family', async () => {
    const registry = new Registry();
    const counter = new Counter({
      name: 'demo_total',
      help: 'A "demo" \\ counter\nwith a newline',
      labelNames: ['route'],
      registers: [registry],
    });
    counter.inc({ route: 'a "quoted"\\path\nnext' }, 3);
    const histogram = new Histogram({ name: 'demo_seconds', help: 'h', buckets: [0.1, 1], registers: [registry] });
    histogram.observe(0.5);
    const families = parsePrometheusText(await registry.metrics());
    expect(families.get('demo_total')?.type).toBe('counter');
    expect(families.get('demo_total')?.help).toBe('A "demo" \\ counter\nwith a newline');
    expect(sampleValue(families, 'demo_total', { route: 'a "quoted"\\path\nnext' })).toBe(3);
    const h = families.get('demo_seconds');
    expect(h?.type).toBe('histogram');
    expect(families.has('demo_seconds_bucket')).toBe(false);
    expect(sampleValue(families, 'demo_seconds_bucket', { le: '0.1' }, 'demo_seconds')).toBe(0);
    expect(sampleValue(families, 'demo_seconds_bucket', { le: '+Inf' }, 'demo_seconds')).toBe(1);
    expect(sampleValue(families, 'demo_seconds_count', {}, 'demo_seconds')).toBe(1);
    expect(sampleValue(families, 'demo_seconds_sum', {}, 'demo_seconds')).toBe(0.5);
  });

  it('reads special values, timestamps and comments', () => {
    const families = parsePrometheusText('# a comment\n# TYPE g gauge\ng{a="1",b="2"} +Inf 1700000000000\ng NaN\ng Nan\nu -3.5e2\n');
    expect(sampleValue(families, 'g', { b: '2' })).toBe(Number.POSITIVE_INFINITY);
    expect(sampleValue(families, 'g')).toBe(Number.POSITIVE_INFINITY);
    expect(families.get('g')?.samples[1]?.value).toBeNaN();
    expect(families.get('g')?.samples[2]?.value).toBeNaN();
    expect(families.get('u')?.type).toBe('untyped');
    expect(sampleValue(families, 'u')).toBe(-350);
  });

  it('refuses what is not the format', () => {
    expect(() => parsePrometheusText('not a metric line at all')).toThrow(/Unreadable sample/);
    expect(() => parsePrometheusText('m{a=1} 2')).toThrow(/Unreadable labels/);
    expect(() => parsePrometheusText('m one')).toThrow(/Unreadable value/);
    expect(() => parsePrometheusText('# TYPE m thing')).toThrow(/Unknown metric type/);
  });
});
