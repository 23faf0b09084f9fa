/**
 * The MLX exchange rate. Every change is an event (`ExchangeRateSet` on the stream
 * `exchange-rate`), so what a purchase or a dashboard was priced at can always be traced.
 * The configured rate is recorded at start-up when it differs from the last one recorded.
 */
import type { Clock } from '../shared/clock.js';
import { WrongExpectedRevisionError, type EventStore } from '../shared/ports/event-store.js';
import { parseExchangeRate, type ExchangeRate } from './money.js';

export const EXCHANGE_RATE_STREAM = 'exchange-rate';

export interface ExchangeRateSet {
  type: 'ExchangeRateSet';
  data: { usdPerMlx: string; source: 'configuration' | 'provider'; setAt: string };
}

/** The rate in force, or undefined when none was ever set. */
export async function currentExchangeRate(store: EventStore): Promise<ExchangeRate | undefined> {
  const records = await store.readStream(EXCHANGE_RATE_STREAM);
  const last = records[records.length - 1];
  const parsed = typeof last?.data.usdPerMlx === 'string' ? parseExchangeRate(last.data.usdPerMlx) : undefined;
  return parsed?.ok ? parsed.rate : undefined;
}

/** Records the configured rate when it differs from the one in force; a concurrent start that wins is fine. */
export async function recordConfiguredExchangeRate(deps: { store: EventStore; clock: Clock }, usdPerMlx: string): Promise<void> {
  const parsed = parseExchangeRate(usdPerMlx);
  if (!parsed.ok) throw new Error(`EXCHANGE_RATE_USD_PER_MLX is not a positive decimal: ${usdPerMlx}`);
  const records = await deps.store.readStream(EXCHANGE_RATE_STREAM);
  const last = records[records.length - 1];
  if (last?.data.usdPerMlx === parsed.rate.usdPerMlx) return;
  const event: ExchangeRateSet = {
    type: 'ExchangeRateSet',
    data: { usdPerMlx: parsed.rate.usdPerMlx, source: 'configuration', setAt: deps.clock.now().toISOString() },
  };
  try {
    await deps.store.append(EXCHANGE_RATE_STREAM, [event], last ? last.revision : 'no_stream');
  } catch (error) {
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
  }
}
