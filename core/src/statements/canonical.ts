/**
 * The bytes a statement's signature covers (ADR 090). Every covered value is a string; a list of
 * them is encoded as its JSON array text in UTF-8 (`["a","b"]`: JSON.stringify of an array of
 * strings has one spelling), so any language with a JSON encoder and SHA-256 can check a statement.
 *
 * Covered fields hold only what the log keeps forever: ids, positions, times, addresses, amounts
 * and rates. Names and e-mails, which an account's deletion erases (ADR 042), are never covered,
 * so a statement still verifies after a shopper in it deleted their account.
 */

import { utf8ToBytes } from '@noble/hashes/utils.js';

export const STATEMENT_VERSION = 'quern-statement-v1';

/** The header's covered fields, in chain order: h0 = SHA-256(canonical header). */
export const HEADER_FIELDS = ['version', 'merchant_id', 'month', 'status', 'currency', 'opening_balance'] as const;

/** A row's covered fields, in chain order: h_i = SHA-256(h_(i-1) || canonical row). */
export const ROW_FIELDS = [
  'seq',
  'event_id',
  'position',
  'time',
  'kind',
  'counterparty_address',
  'counterparty_wallet',
  'transaction',
  'reference',
  'amount',
  'fee',
  'balance_after',
  'usd_rate',
] as const;

export type StatementHeaderFields = Record<(typeof HEADER_FIELDS)[number], string>;
export type StatementRowFields = Record<(typeof ROW_FIELDS)[number], string>;

/** The canonical bytes of a list of strings. */
export const canonicalBytes = (values: readonly string[]): Uint8Array => utf8ToBytes(JSON.stringify(values));

export const headerValues = (header: StatementHeaderFields): string[] => HEADER_FIELDS.map((field) => header[field]);
export const rowValues = (row: StatementRowFields): string[] => ROW_FIELDS.map((field) => row[field]);
