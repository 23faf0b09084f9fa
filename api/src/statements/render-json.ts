/**
 * The statement as JSON, written as it is built: the header's fields, one row per line, then the
 * closing balance, totals and signature. Keys come in one fixed order and nothing depends on the
 * time of asking, so the same statement is always the same bytes (ADR 090).
 */
import type { Writable } from 'node:stream';
import { ROW_FIELDS, type StatementRow } from '@quern/core/statements';
import { write } from '../payments/csv-export.js';
import type { StatementEnd, StatementHead, StatementRenderer } from './build.js';

const rowJson = (row: StatementRow): string =>
  JSON.stringify(
    Object.fromEntries([...ROW_FIELDS.map((field) => [field, row[field]]), ['counterparty', row.counterparty], ['hash', row.hash]]),
  );

export function jsonRenderer(out: Writable, livemode: boolean): StatementRenderer {
  let rows = 0;
  return {
    async header(head: StatementHead) {
      const { version, merchant_id, month, status, currency, opening_balance, header_hash } = head;
      const fields = { object: 'statement', livemode, version, merchant_id, month, status, currency, opening_balance, header_hash };
      await write(out, `${JSON.stringify(fields).slice(0, -1)},"rows":[`);
    },
    async row(row: StatementRow) {
      await write(out, `${rows === 0 ? '' : ','}\n${rowJson(row)}`);
      rows += 1;
    },
    async end(end: StatementEnd) {
      const { closing_balance, totals, signature } = end;
      await write(out, `${rows === 0 ? '' : '\n'}],${JSON.stringify({ closing_balance, totals, signature }).slice(1)}\n`);
    },
  };
}
