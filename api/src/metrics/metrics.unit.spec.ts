import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { type EventStore, WrongExpectedRevisionError } from '@quern/core';
import { parsePrometheusText, sampleValue } from '@quern/test-support/prometheus-text';
import { methodLabel, procedureLabels, routeLabels, UNKNOWN_PROCEDURE_ROUTE, UNMATCHED_ROUTE, WEB_ROUTE } from '../http/route-pattern.js';
import { createAppendMetrics, withAppendMetrics } from './event-store.js';
import { lagOf, mlxGaugeValue, queueJobCounts } from './collectors.js';
import { bearerMatches } from './expose.js';

const procedures = new Set(['wallet.send', 'identity.login']);

describe('route labels', () => {
  it('use the matched pattern, never the URL', () => {
    expect(
      routeLabels({ method: 'GET', path: '/api/v1/payments/ord_123', routePattern: '/api/v1/payments/:order', status: 200 }, procedures),
    ).toEqual(['/api/v1/payments/:order']);
  });

  it('name each tRPC procedure of a batch, and collapse unknown ones', () => {
    expect(routeLabels({ method: 'POST', path: '/trpc/wallet.send', status: 200 }, procedures)).toEqual(['/trpc/wallet.send']);
    expect(routeLabels({ method: 'GET', path: '/trpc/wallet.send,identity.login', status: 200 }, procedures)).toEqual([
      '/trpc/wallet.send',
      '/trpc/identity.login',
    ]);
    expect(routeLabels({ method: 'GET', path: '/trpc/made.up.123', status: 404 }, procedures)).toEqual([UNKNOWN_PROCEDURE_ROUTE]);
    expect(procedureLabels('/trpc/', procedures)).toEqual([UNKNOWN_PROCEDURE_ROUTE]);
  });

  it('bound a batch naming many procedures to ten labels', () => {
    expect(procedureLabels(`/trpc/${Array(50).fill('wallet.send').join(',')}`, procedures)).toHaveLength(10);
  });

  it('collapse pages into one label and anything unmatched into another', () => {
    expect(routeLabels({ method: 'GET', path: '/wallet', status: 200 }, procedures)).toEqual([WEB_ROUTE]);
    expect(routeLabels({ method: 'GET', path: '/assets/app-1234.js', status: 304 }, procedures)).toEqual([WEB_ROUTE]);
    expect(routeLabels({ method: 'GET', path: '/wp-admin/x.php', status: 404 }, procedures)).toEqual([UNMATCHED_ROUTE]);
    expect(routeLabels({ method: 'POST', path: '/anything', status: 404 }, procedures)).toEqual([UNMATCHED_ROUTE]);
    expect(routeLabels({ method: 'GET', path: '/api/v1/nope', status: 404 }, procedures)).toEqual([UNMATCHED_ROUTE]);
    expect(routeLabels({ method: 'GET', path: '/api/not-found', status: 200 }, procedures)).toEqual([UNMATCHED_ROUTE]);
  });

  it('collapse unusual methods', () => {
    expect(methodLabel('GET')).toBe('GET');
    expect(methodLabel('PROPFIND')).toBe('OTHER');
  });
});

describe('projection lag', () => {
  const now = new Date('2026-01-01T00:01:00.000Z');
  it('is zero when nothing is unapplied', () => expect(lagOf([], now)).toEqual({ events: 0, seconds: 0 }));
  it('counts the unapplied events and ages the oldest', () => {
    expect(lagOf([{ recordedAt: '2026-01-01T00:00:30.000Z' }, { recordedAt: '2026-01-01T00:00:59.000Z' }], now)).toEqual({
      events: 2,
      seconds: 30,
    });
  });
  it('never goes negative when clocks differ', () => {
    expect(lagOf([{ recordedAt: '2026-01-01T00:02:00.000Z' }], now)).toEqual({ events: 1, seconds: 0 });
  });
});

describe('queue job counts', () => {
  it('count prioritized jobs as waiting and fill missing states with 0', () => {
    expect(queueJobCounts({ waiting: 2, prioritized: 3, active: 1 })).toEqual({ waiting: 5, active: 1, delayed: 0, failed: 0 });
  });
});

describe('MLX gauge values', () => {
  it('are exact for the default supply (below 2^53)', () => {
    expect(mlxGaugeValue('9000000000000000')).toBe(9_000_000_000_000_000);
    expect(Number.isSafeInteger(mlxGaugeValue('9000000000000000'))).toBe(true);
    expect(mlxGaugeValue('1000000000000')).toBe(1e12);
  });
});

describe('bearer token', () => {
  const token = 'a'.repeat(40);
  it("accepts only the exact token in a Bearer header, whatever the scheme's case", () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    // The scheme is case-insensitive (RFC 9110), as the API key's.
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`BEARER ${token}`, token)).toBe(true);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
    expect(bearerMatches('Bearer ', token)).toBe(false);
  });
});

describe('withAppendMetrics', () => {
  const result = { nextExpectedRevision: 0n, position: 1n };
  const fakeStore = (append: EventStore['append']) =>
    ({ append, appendToStreams: async () => [result, result], extra: 'kept' }) as unknown as EventStore & { extra: string };

  it('counts appends, events and failures by outcome, and keeps the other members', async () => {
    const registry = new Registry();
    let calls = 0;
    const store = withAppendMetrics(
      fakeStore(async () => {
        calls += 1;
        if (calls === 2) throw new WrongExpectedRevisionError('s', 0n, 1n);
        if (calls === 3) throw new Error('disk full');
        return result;
      }),
      createAppendMetrics(registry),
    );
    expect(store.extra).toBe('kept');
    await store.append(
      's',
      [
        { type: 'A', data: {} },
        { type: 'B', data: {} },
      ],
      'any',
    );
    await expect(store.append('s', [{ type: 'A', data: {} }], 0n)).rejects.toThrow(WrongExpectedRevisionError);
    await expect(store.append('s', [{ type: 'A', data: {} }], 'any')).rejects.toThrow('disk full');
    await store.appendToStreams([
      { streamId: 'x', events: [{ type: 'A', data: {} }], expectedRevision: 'any' },
      { streamId: 'y', events: [{ type: 'A', data: {} }], expectedRevision: 'any' },
    ]);
    const families = parsePrometheusText(await registry.metrics());
    expect(sampleValue(families, 'quern_event_store_appends_total', { outcome: 'ok' })).toBe(2);
    expect(sampleValue(families, 'quern_event_store_appends_total', { outcome: 'conflict' })).toBe(1);
    expect(sampleValue(families, 'quern_event_store_appends_total', { outcome: 'error' })).toBe(1);
    expect(sampleValue(families, 'quern_event_store_appended_events_total')).toBe(4);
    expect(
      sampleValue(
        families,
        'quern_event_store_append_duration_seconds_count',
        { outcome: 'ok' },
        'quern_event_store_append_duration_seconds',
      ),
    ).toBe(2);
  });
});
