/**
 * The statement as CSV (RFC 4180, CRLF), written as it is built: a header row, the opening
 * balance, one row per movement with its chain hash, the closing balance, the totals by kind and
 * the signature. Labels are in the statement's language; numbers stay plain integers of MLX units
 * and rates plain decimals, so a spreadsheet reads them the same in any language. The counterparty,
 * the one cell a person chose, is made inert for spreadsheets.
 */
import type { Writable } from 'node:stream';
import type { StatementRow } from '@quern/core/statements';
import { stringify } from 'csv-stringify/sync';
import { inertCell, write } from '../payments/csv-export.js';
import type { StatementEnd, StatementHead, StatementRenderer } from './build.js';
import type { StatementTexts } from './texts.js';

const line = (cells: string[]): string => stringify([cells], { record_delimiter: 'windows' });

export function csvRenderer(out: Writable, texts: StatementTexts): StatementRenderer {
  const w = texts.words;
  const columns = [
    '#',
    w.time,
    w.kind,
    w.counterparty,
    'counterparty_address',
    w.reference,
    'transaction',
    w.amount,
    w.fee,
    w.usdRate,
    w.balance,
    'event_id',
    'position',
    'hash',
  ];
  const blank = (cells: Partial<Record<number, string>>): string[] => columns.map((_, i) => cells[i] ?? '');
  return {
    async header(head: StatementHead) {
      await write(out, line(columns));
      await write(
        out,
        line(
          blank({
            2: w.openingBalance,
            3: `${w.merchant} ${head.merchant_id}`,
            5: `${w.month} ${head.month}`,
            6: head.status === 'open' ? w.statusOpen : w.statusClosed,
            10: head.opening_balance,
            13: head.header_hash,
          }),
        ),
      );
    },
    async row(row: StatementRow) {
      await write(
        out,
        line([
          row.seq,
          row.time,
          texts.kind(row.kind),
          inertCell(texts.counterparty(row)),
          row.counterparty_address,
          row.reference,
          row.transaction,
          row.amount,
          row.fee,
          row.usd_rate,
          row.balance_after,
          row.event_id,
          row.position,
          row.hash,
        ]),
      );
    },
    async end(end: StatementEnd) {
      await write(out, line(blank({ 2: w.closingBalance, 10: end.closing_balance, 13: end.signature.last_hash })));
      for (const kind of end.totals.by_kind)
        await write(out, line(blank({ 0: String(kind.count), 2: `${w.totals}: ${texts.kind(kind.kind)}`, 7: kind.amount, 8: kind.fee })));
      await write(out, line(blank({ 2: w.credits, 7: end.totals.credits })));
      await write(out, line(blank({ 2: w.debits, 7: end.totals.debits === '0' ? '0' : `-${end.totals.debits}` })));
      await write(out, line(blank({ 2: w.fees, 8: end.totals.fees })));
      await write(out, line(blank({ 2: `${w.signature} (Ed25519)`, 3: end.signature.public_key, 13: end.signature.value })));
    },
  };
}
