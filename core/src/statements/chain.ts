/**
 * The hash chain a statement is signed over (ADR 090): h0 = SHA-256(canonical header), then for
 * each row h_i = SHA-256(h_(i-1) || canonical row), the previous hash as its 32 raw bytes. The
 * signature (Ed25519) is over the canonical bytes of the signed message: the version, the last
 * hash in hex, the number of rows, the closing balance and the totals. Changing, removing, adding
 * or reordering a row changes every hash after it, so the first row whose recomputed hash differs
 * from the one it carries is the first row that differs.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import {
  canonicalBytes,
  headerValues,
  rowValues,
  STATEMENT_VERSION,
  type StatementHeaderFields,
  type StatementRowFields,
} from './canonical.js';
import { type StatementTotals, totalsValues } from './totals.js';

export const headerHash = (header: StatementHeaderFields): Uint8Array => sha256(canonicalBytes(headerValues(header)));

export function nextChainHash(previous: Uint8Array, row: StatementRowFields): Uint8Array {
  const body = canonicalBytes(rowValues(row));
  const input = new Uint8Array(previous.length + body.length);
  input.set(previous, 0);
  input.set(body, previous.length);
  return sha256(input);
}

export const hexOf = (hash: Uint8Array): string => bytesToHex(hash);

/** What the signature covers, besides the chain's last hash. */
export interface StatementClosing {
  rowCount: number;
  closingBalance: string;
  totals: StatementTotals;
}

export const signedMessage = (lastHashHex: string, closing: StatementClosing): Uint8Array =>
  canonicalBytes([STATEMENT_VERSION, lastHashHex, String(closing.rowCount), closing.closingBalance, ...totalsValues(closing.totals)]);
