/**
 * The chain half of checking a statement (ADR 090), pure: recomputes the header hash and each
 * row's hash, and names the first row that does not match what it carries, or whose sequence
 * number shows a row missing before it, or whose balance does not follow from the one before; then
 * checks the totals and the closing balance against the rows. The signature half needs Ed25519
 * and lives with the signer (api/src/statements/verify.ts).
 */
import { headerHash, hexOf, nextChainHash, signedMessage } from './chain.js';
import type { Statement } from './contracts.js';
import { balanceAfterMovement, createTotals, totalsValues } from './totals.js';
import { canonicalBytes } from './canonical.js';

export type ChainCheck = { ok: true; lastHashHex: string; message: Uint8Array } | { ok: false; problem: string; row?: number };

export function checkStatementChain(statement: Statement): ChainCheck {
  let hash = headerHash(statement);
  if (hexOf(hash) !== statement.header_hash)
    return { ok: false, problem: 'The header (merchant, month, status or opening balance) was changed' };
  let balance = statement.opening_balance;
  const totals = createTotals();
  for (const [index, row] of statement.rows.entries()) {
    const seq = index + 1;
    if (row.seq !== String(seq)) {
      const found = Number(row.seq);
      return Number.isInteger(found) && found > seq
        ? { ok: false, row: seq, problem: `Row ${seq} was removed (the next row carries number ${row.seq})` }
        : { ok: false, row: seq, problem: `Row ${seq} carries number ${row.seq}: rows were added or reordered` };
    }
    hash = nextChainHash(hash, row);
    if (hexOf(hash) !== row.hash)
      return { ok: false, row: seq, problem: `Row ${seq} (event ${row.event_id}) differs from what was signed` };
    balance = balanceAfterMovement(balance, row);
    if (balance !== row.balance_after)
      return { ok: false, row: seq, problem: `Row ${seq}: the balance after it does not follow from the row before` };
    totals.add(row);
  }
  const lastHashHex = hexOf(hash);
  if (lastHashHex !== statement.signature.last_hash) return { ok: false, problem: 'Rows were added or removed at the end' };
  if (balance !== statement.closing_balance) return { ok: false, problem: 'The closing balance does not follow from the rows' };
  const recounted = canonicalBytes(totalsValues(totals.result()));
  if (!sameBytes(recounted, canonicalBytes(totalsValues(statement.totals))))
    return { ok: false, problem: 'The totals do not add up the rows' };
  const closing = { rowCount: statement.rows.length, closingBalance: statement.closing_balance, totals: statement.totals };
  return { ok: true, lastHashHex, message: signedMessage(lastHashHex, closing) };
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i]);
