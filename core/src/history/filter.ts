/**
 * Filters for the dashboard's history (issue 25): by kind (kind.ts), by counterparty (a
 * username, case-insensitive exact, or a millix address, matched against the row's other party)
 * and by date (from/to, YYYY-MM-DD, inclusive UTC days). All optional. The schemas give one i18n
 * message per field; the matcher is pure, so the read model and its tests share it.
 */
import { z } from 'zod';
import { normalizeUsername, usernamePattern } from '../shared/person-keys.js';
import { parseAddress } from '../wallet/address.js';
import { type HistoryKind, historyKindOf, isHistoryKind } from './kind.js';

/** Longest counterparty text read: longer than any username or millix address. */
export const HISTORY_COUNTERPARTY_LENGTH_MAX = 128;
/** Widest date range accepted, in days (about 10 years): wider is almost certainly a typo. */
export const HISTORY_DATE_RANGE_DAYS_MAX = 3_660;
const USERNAME_LENGTH_MIN = 3;
const USERNAME_LENGTH_MAX = 32;
const DAY_MS = 86_400_000;

/** A calendar day (YYYY-MM-DD) that exists: 2026-02-30 is refused, not rolled over. */
const historyDay = (messageKey: string) =>
  z.string({ error: messageKey }).refine((text) => dayNumber(text) !== null, { error: messageKey });

/** Days since 1970-01-01 of a valid YYYY-MM-DD, else null. */
export function dayNumber(text: string): number | null {
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  if (year < 1970 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return ms / DAY_MS;
}

export type HistoryCounterparty = { kind: 'username'; username: string } | { kind: 'address'; address: string };

/** A username (normalized as identity stores it) or a millix address; anything else is refused. */
export function parseHistoryCounterparty(text: string): HistoryCounterparty | null {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > HISTORY_COUNTERPARTY_LENGTH_MAX) return null;
  const address = parseAddress(trimmed);
  if (address.ok) return { kind: 'address', address: address.address };
  if (trimmed.length >= USERNAME_LENGTH_MIN && trimmed.length <= USERNAME_LENGTH_MAX && usernamePattern.test(trimmed))
    return { kind: 'username', username: normalizeUsername(trimmed) };
  return null;
}

const historyFilterFields = {
  kind: z
    .string({ error: 'errors:historyFilterKind' })
    .refine((kind) => isHistoryKind(kind), { error: 'errors:historyFilterKind' })
    .transform((kind) => kind as HistoryKind)
    .optional(),
  counterparty: z
    .string({ error: 'errors:historyFilterCounterparty' })
    .max(HISTORY_COUNTERPARTY_LENGTH_MAX, { error: 'errors:historyFilterCounterparty' })
    .refine((text) => parseHistoryCounterparty(text) !== null, { error: 'errors:historyFilterCounterparty' })
    .optional(),
  from: historyDay('errors:historyFilterFrom').optional(),
  to: historyDay('errors:historyFilterTo').optional(),
};

/** from <= to, at most HISTORY_DATE_RANGE_DAYS_MAX apart; the message lands on `to`. */
export function checkHistoryRange(
  value: { from?: string | undefined; to?: string | undefined },
  ctx: z.RefinementCtx,
  path: (string | number)[],
) {
  if (value.from === undefined || value.to === undefined) return;
  const from = dayNumber(value.from);
  const to = dayNumber(value.to);
  if (from === null || to === null) return;
  if (to < from) ctx.addIssue({ code: 'custom', path: [...path, 'to'], message: 'errors:historyFilterRange' });
  else if (to - from > HISTORY_DATE_RANGE_DAYS_MAX)
    ctx.addIssue({ code: 'custom', path: [...path, 'to'], message: 'errors:historyFilterRangeTooWide' });
}

/**
 * The tRPC `wallet.transactions` input's optional `filter`: strict, every field optional, but at
 * least one given (no filter is no `filter`, so an empty object is a malformed call).
 */
export const historyFilterInput = z.strictObject(historyFilterFields).superRefine((value, ctx) => {
  if (!Object.values(value).some((field) => field !== undefined))
    ctx.addIssue({ code: 'custom', path: [], message: 'errors:invalidRequest' });
  checkHistoryRange(value, ctx, []);
});
export type HistoryFilter = z.infer<typeof historyFilterInput>;

/** The same fields as query parameters (REST): returns the filter, or undefined when none is given. */
export const historyFilterQueryFields = historyFilterFields;

export function hasHistoryFilter(filter: HistoryFilter | undefined): filter is HistoryFilter {
  return filter !== undefined && Object.values(filter).some((value) => value !== undefined);
}

/** A row as the matcher needs it: the spec's fields plus the usernames resolved for it. */
export interface HistoryFilterRow {
  transaction_type: string;
  from_address: string;
  to_address: string;
  from_username?: string | undefined;
  to_username?: string | undefined;
  transaction_date: string;
  purpose?: { kind: string } | undefined;
}

/** The UTC day (days since 1970-01-01) of an ISO date-time; null when it does not parse. */
function rowDay(isoDateTime: string): number | null {
  const ms = Date.parse(isoDateTime);
  return Number.isNaN(ms) ? null : Math.floor(ms / DAY_MS);
}

/**
 * Whether a row matches every given field. The counterparty is the row's other party: the
 * receiver of a debit, the sender of a credit.
 */
export function matchesHistoryFilter(row: HistoryFilterRow, filter: HistoryFilter): boolean {
  if (filter.kind !== undefined && historyKindOf(row) !== filter.kind) return false;
  if (filter.counterparty !== undefined) {
    const wanted = parseHistoryCounterparty(filter.counterparty);
    if (wanted === null) return false;
    const incoming = row.transaction_type === 'credit';
    if (wanted.kind === 'address') {
      if ((incoming ? row.from_address : row.to_address) !== wanted.address) return false;
    } else {
      const username = incoming ? row.from_username : row.to_username;
      if (username === undefined || normalizeUsername(username) !== wanted.username) return false;
    }
  }
  if (filter.from !== undefined || filter.to !== undefined) {
    const day = rowDay(row.transaction_date);
    if (day === null) return false;
    const from = filter.from === undefined ? null : dayNumber(filter.from);
    const to = filter.to === undefined ? null : dayNumber(filter.to);
    if (from !== null && day < from) return false;
    if (to !== null && day > to) return false;
  }
  return true;
}
