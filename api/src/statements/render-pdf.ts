/**
 * The statement as a PDF (pdfkit), in English or Spanish, written as it is built: a page is sent
 * as soon as the next one starts, and a row waits while the client has not taken what was sent,
 * so a month of 100,000 movements never sits whole in memory. Deterministic (ADR 090): the
 * document's dates are the month's first instant, its file /ID is pdfkit's hash of that info, the
 * fonts are the PDF standard Helvetica (nothing embedded), so the same statement is the same bytes.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { decimalSeparator, formatDateTime, formatInteger } from '@quern/core/i18n/format';
import type { StatementLanguage, StatementRow } from '@quern/core/statements';
import PDFDocument from 'pdfkit';
import type { StatementEnd, StatementHead, StatementRenderer } from './build.js';
import type { StatementTexts } from './texts.js';

const MARGIN = 36;
const ROW_HEIGHT = 12;
const FONT_SIZE = 7.5;
/** The table's columns: widths in points (A4 landscape leaves 770 between the margins). */
const COLUMNS = [
  { key: 'seq', width: 30, align: 'right' },
  { key: 'time', width: 92, align: 'left' },
  { key: 'kind', width: 92, align: 'left' },
  { key: 'counterparty', width: 118, align: 'left' },
  { key: 'reference', width: 120, align: 'left' },
  { key: 'amount', width: 82, align: 'right' },
  { key: 'fee', width: 66, align: 'right' },
  { key: 'usdRate', width: 70, align: 'right' },
  { key: 'balance', width: 92, align: 'right' },
] as const;

/** Bytes pdfkit may hold unsent (its readable buffer) before the next row waits. */
const UNSENT_BYTES_MAX = 64 * 1024;

/**
 * Waits while the client has not taken what was sent: pdfkit keeps pushing into its own buffer
 * whatever the pipe's state, so both its buffer and the socket's are watched, a turn at a time.
 * Rejects when the client went away.
 */
async function drained(doc: PDFKit.PDFDocument, out: Writable): Promise<void> {
  while (out.writableNeedDrain || doc.readableLength > UNSENT_BYTES_MAX) {
    if (out.destroyed) throw new Error('The statement destination closed before the statement ended');
    if (!out.writableNeedDrain) {
      // The socket has room: the pipe moves pdfkit's buffer into it on the next turns.
      await new Promise<void>((resolve) => setImmediate(resolve));
      continue;
    }
    const stop = new AbortController();
    const drain = once(out, 'drain', { signal: stop.signal });
    const close = once(out, 'close', { signal: stop.signal });
    try {
      await Promise.race([drain, close]);
    } finally {
      // The one that lost rejects when aborted; nothing waits for it.
      stop.abort();
      drain.catch(() => undefined);
      close.catch(() => undefined);
    }
  }
}

export function pdfRenderer(out: Writable, texts: StatementTexts, language: StatementLanguage, month: { startMs: number }): PdfRenderer {
  const w = texts.words;
  const fixedDate = new Date(month.startMs);
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    info: { Title: w.title, Author: 'Quern', Creator: 'Quern', Producer: 'Quern', CreationDate: fixedDate, ModDate: fixedDate },
  });
  doc.pipe(out);
  const mlx = (units: string): string => formatInteger(BigInt(units), language);
  const rate = (value: string): string => (value === '' ? '—' : value.replace('.', decimalSeparator(language)));
  let pages = 1;
  const bottom = () => doc.page.height - MARGIN - ROW_HEIGHT * 2;

  /** The text cut to `width` with an ellipsis: pdfkit would wrap a long id onto the next row instead. */
  const fit = (text: string, width: number): string => {
    if (doc.widthOfString(text) <= width) return text;
    let keep = text.length;
    while (keep > 0 && doc.widthOfString(`${text.slice(0, keep)}…`) > width) keep -= 1;
    return `${text.slice(0, keep)}…`;
  };
  const cells = (values: Record<(typeof COLUMNS)[number]['key'], string>, bold = false) => {
    const y = doc.y;
    let x = MARGIN;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(FONT_SIZE);
    for (const column of COLUMNS) {
      const width = column.width - 4;
      doc.text(fit(values[column.key], width), x, y, { width, align: column.align, lineBreak: false });
      x += column.width;
    }
    doc.x = MARGIN;
    doc.y = y + ROW_HEIGHT;
  };
  const tableHead = () =>
    cells(
      {
        seq: '#',
        time: w.time,
        kind: w.kind,
        counterparty: w.counterparty,
        reference: w.reference,
        amount: w.amount,
        fee: w.fee,
        usdRate: w.usdRate,
        balance: w.balance,
      },
      true,
    );
  const footer = () => {
    const y = doc.y;
    doc
      .font('Helvetica')
      .fontSize(FONT_SIZE)
      .text(texts.page(pages), MARGIN, doc.page.height - MARGIN - ROW_HEIGHT, { lineBreak: false });
    doc.y = y;
  };
  const newPage = () => {
    doc.addPage();
    pages += 1;
    footer();
    doc.y = MARGIN;
    tableHead();
  };
  const line = (label: string, value: string, size = 10) => {
    doc.font('Helvetica-Bold').fontSize(size).text(`${label}: `, MARGIN, doc.y, { continued: true });
    doc.font('Helvetica').text(value);
  };

  return {
    document: doc,
    async header(head: StatementHead) {
      footer();
      doc.font('Helvetica-Bold').fontSize(18).text(w.title, MARGIN, MARGIN);
      doc.moveDown(0.5);
      line(w.merchant, head.merchant_id);
      line(w.month, head.month);
      line(w.status, head.status === 'open' ? w.statusOpen : w.statusClosed);
      line(w.openingBalance, `${mlx(head.opening_balance)} MLX`);
      doc.moveDown(0.5);
      doc.font('Helvetica-Bold').fontSize(12).text(w.movements);
      doc.moveDown(0.3);
      tableHead();
    },
    async row(row: StatementRow) {
      if (doc.y > bottom()) newPage();
      cells({
        seq: row.seq,
        time: formatDateTime(row.time, language, { timeZone: 'UTC' }),
        kind: texts.kind(row.kind),
        counterparty: texts.counterparty(row),
        reference: row.reference || row.transaction,
        amount: mlx(row.amount),
        fee: row.fee === '0' ? '' : mlx(row.fee),
        usdRate: rate(row.usd_rate),
        balance: mlx(row.balance_after),
      });
      await drained(doc, out);
    },
    async end(end: StatementEnd) {
      if (end.rowCount === 0) doc.font('Helvetica').fontSize(10).text(w.noMovements, MARGIN, doc.y);
      const needed = ROW_HEIGHT * (end.totals.by_kind.length + 14);
      if (doc.y + needed > bottom()) {
        doc.addPage();
        pages += 1;
        footer();
        doc.y = MARGIN;
      }
      doc.moveDown(0.8);
      line(w.closingBalance, `${mlx(end.closing_balance)} MLX`);
      doc.moveDown(0.5);
      doc.font('Helvetica-Bold').fontSize(12).text(w.totals, MARGIN, doc.y);
      doc.moveDown(0.3);
      for (const kind of end.totals.by_kind)
        line(texts.kind(kind.kind), `${w.count} ${kind.count} · ${mlx(kind.amount)} MLX · ${w.fee} ${mlx(kind.fee)}`, 9);
      line(w.credits, `${mlx(end.totals.credits)} MLX`, 9);
      line(w.debits, `${mlx(end.totals.debits)} MLX`, 9);
      line(w.fees, `${mlx(end.totals.fees)} MLX`, 9);
      doc.moveDown(0.8);
      doc.font('Helvetica-Bold').fontSize(12).text(w.signature, MARGIN, doc.y);
      doc.font('Helvetica').fontSize(8).text(w.signatureNote, { width: 770 });
      line(w.lastHash, end.signature.last_hash, 8);
      line(w.publicKey, end.signature.public_key, 8);
      line('Ed25519', end.signature.value, 8);
      const finished = once(out, 'finish');
      doc.end();
      await finished;
    },
  };
}

export interface PdfRenderer extends StatementRenderer {
  document: PDFKit.PDFDocument;
}
