// Proves the pure parts of a signed statement (ADR 090): the canonical bytes are the JSON array of the covered fields in their fixed order; the chain starts from the header's hash and each row's hash depends on every row before it; the totals add up signed amounts and fees per kind in a sorted order; the chain check names the first changed row, a removed row, a broken balance and totals that do not add up; months parse, refuse malformed and future ones, and close an hour after they end.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { canonicalBytes, ROW_FIELDS, STATEMENT_VERSION, type StatementRowFields } from './canonical.js';
import { headerHash, hexOf, nextChainHash, signedMessage } from './chain.js';
import type { Statement } from './contracts.js';
import { parseStatementMonth, STATEMENT_CLOSING_GRACE_MS, statementMonthOf, statementStatusOf } from './month.js';
import { balanceAfterMovement, createTotals } from './totals.js';
import { checkStatementChain } from './verify.js';

/** UTF-8 bytes back to text, by percent-decoding (core has no TextDecoder in its libraries). */
const bytesToText = (bytes: Uint8Array): string =>
  decodeURIComponent([...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));

const header = {
  version: STATEMENT_VERSION,
  merchant_id: 'm-1',
  month: '2026-03',
  status: 'closed',
  currency: 'MLX',
  opening_balance: '1000',
};

const row = (
  seq: number,
  amount: string,
  fee: string,
  balance: string,
  kind = amount.startsWith('-') ? 'sent' : 'received',
): StatementRowFields => ({
  seq: String(seq),
  event_id: `e-${seq}`,
  position: String(100 + seq),
  time: `2026-03-0${seq}T10:00:00.000Z`,
  kind,
  counterparty_address: `addr-${seq}`,
  counterparty_wallet: '',
  transaction: `t-${seq}`,
  reference: '',
  amount,
  fee,
  balance_after: balance,
  usd_rate: '0.0000125',
});

/** A statement as the api builds it, without the signature's value (the chain check does not read it). */
function statementOf(rows: StatementRowFields[]): Statement {
  let hash = headerHash(header);
  const totals = createTotals();
  const signed = rows.map((fields) => {
    hash = nextChainHash(hash, fields);
    totals.add(fields);
    return { ...fields, counterparty: '', hash: hexOf(hash) };
  });
  return {
    object: 'statement',
    ...header,
    status: 'closed',
    header_hash: hexOf(headerHash(header)),
    rows: signed,
    closing_balance: signed.at(-1)?.balance_after ?? header.opening_balance,
    totals: totals.result(),
    signature: { algorithm: 'Ed25519', public_key: '', last_hash: hexOf(hash), value: '' },
  };
}

const rows = [row(1, '500', '0', '1500'), row(2, '-300', '1000', '200'), row(3, '50', '0', '250')];

describe('canonical bytes and the chain', () => {
  it('encodes a list of strings as its JSON array text in UTF-8, and a row by its fields in the fixed order', () => {
    expect(bytesToText(canonicalBytes(['a', 'ñ"', '']))).toBe('["a","ñ\\"",""]');
    expect(ROW_FIELDS[0]).toBe('seq');
    const h0 = headerHash(header);
    expect(hexOf(h0)).toBe(bytesToHex(sha256(utf8ToBytes(JSON.stringify([STATEMENT_VERSION, 'm-1', '2026-03', 'closed', 'MLX', '1000'])))));
    const first = rows[0]!;
    const expected = sha256(new Uint8Array([...h0, ...utf8ToBytes(JSON.stringify(ROW_FIELDS.map((f) => first[f])))]));
    expect(hexOf(nextChainHash(h0, first))).toBe(bytesToHex(expected));
  });

  it('makes each hash depend on every row before it', () => {
    const a = statementOf(rows);
    const b = statementOf([{ ...rows[0]!, amount: '501', balance_after: '1501' }, rows[1]!, rows[2]!]);
    for (const i of [0, 1, 2]) expect(a.rows[i]!.hash).not.toBe(b.rows[i]!.hash);
  });

  it('signs the last hash with the count, the closing balance and the totals', () => {
    const s = statementOf(rows);
    const message = bytesToText(signedMessage(s.signature.last_hash, { rowCount: 3, closingBalance: '250', totals: s.totals }));
    expect(JSON.parse(message)).toEqual([
      STATEMENT_VERSION,
      s.signature.last_hash,
      '3',
      '250',
      '550',
      '300',
      '1000',
      'received',
      '2',
      '550',
      '0',
      'sent',
      '1',
      '-300',
      '1000',
    ]);
  });
});

describe('totals', () => {
  it('adds signed amounts and fees per kind, sorted by kind, and carries balances forward', () => {
    const totals = createTotals();
    for (const r of [row(1, '-10', '1', '', 'sent'), row(2, '7', '0', '', 'received'), row(3, '-5', '2', '', 'payout')]) totals.add(r);
    expect(totals.result()).toEqual({
      credits: '7',
      debits: '15',
      fees: '3',
      by_kind: [
        { kind: 'payout', count: 1, amount: '-5', fee: '2' },
        { kind: 'received', count: 1, amount: '7', fee: '0' },
        { kind: 'sent', count: 1, amount: '-10', fee: '1' },
      ],
    });
    expect(balanceAfterMovement('1000', { amount: '-300', fee: '1000' })).toBe('-300');
    expect(createTotals().result()).toEqual({ credits: '0', debits: '0', fees: '0', by_kind: [] });
  });
});

describe('the chain check', () => {
  it('accepts a true statement', () => {
    expect(checkStatementChain(statementOf(rows))).toMatchObject({ ok: true });
    expect(checkStatementChain(statementOf([]))).toMatchObject({ ok: true });
  });

  it('names the first row that was changed, removed or reordered', () => {
    const changed = statementOf(rows);
    changed.rows[1]!.amount = '-30';
    expect(checkStatementChain(changed)).toMatchObject({ ok: false, row: 2, problem: 'Row 2 (event e-2) differs from what was signed' });
    const removed = statementOf(rows);
    removed.rows.splice(0, 1);
    expect(checkStatementChain(removed)).toMatchObject({ ok: false, row: 1, problem: 'Row 1 was removed (the next row carries number 2)' });
    const swapped = statementOf(rows);
    swapped.rows.reverse();
    expect(checkStatementChain(swapped)).toMatchObject({ ok: false, row: 1 });
    const cut = statementOf(rows);
    cut.rows.pop();
    expect(checkStatementChain(cut)).toMatchObject({ ok: false, problem: 'Rows were added or removed at the end' });
    const header = statementOf(rows);
    header.opening_balance = '2000';
    expect(checkStatementChain(header)).toMatchObject({ ok: false, problem: expect.stringContaining('header') });
  });

  it('refuses balances and totals that do not follow from the rows, even when hashed consistently', () => {
    expect(checkStatementChain(statementOf([row(1, '500', '0', '1600')]))).toMatchObject({ ok: false, row: 1 });
    const totals = statementOf(rows);
    totals.totals = { ...totals.totals, fees: '0' };
    expect(checkStatementChain(totals)).toMatchObject({ ok: false, problem: 'The totals do not add up the rows' });
    const closing = statementOf(rows);
    closing.closing_balance = '9';
    expect(checkStatementChain(closing)).toMatchObject({ ok: false, problem: 'The closing balance does not follow from the rows' });
  });
});

describe('months', () => {
  it('parses YYYY-MM into its UTC bounds and refuses anything else', () => {
    expect(parseStatementMonth('2026-02')).toEqual({ month: '2026-02', startMs: Date.UTC(2026, 1, 1), endMs: Date.UTC(2026, 2, 1) });
    expect(parseStatementMonth('2026-12')?.endMs).toBe(Date.UTC(2027, 0, 1));
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-01', '2026-01-01', '', '1999-12'])
      expect(parseStatementMonth(bad), bad).toBeUndefined();
    expect(() => statementMonthOf('2026-13')).toThrow(AppError);
  });

  it('is open while it runs and for an hour after, closed then, and refused before it starts', () => {
    const march = statementMonthOf('2026-03');
    expect(() => statementStatusOf(march, march.startMs - 1)).toThrow('errors:statementMonthInFuture');
    expect(statementStatusOf(march, march.startMs)).toBe('open');
    expect(statementStatusOf(march, march.endMs + STATEMENT_CLOSING_GRACE_MS - 1)).toBe('open');
    expect(statementStatusOf(march, march.endMs + STATEMENT_CLOSING_GRACE_MS)).toBe('closed');
  });
});
