/**
 * A receipt as a PDF (ADR 091), written with pdfkit in the reader's language: the company that
 * issued it, the title and kind, the rows the printable page shows (core/src/receipts/rows.ts)
 * and a closing line. The standard Helvetica fonts cover English and Spanish (WinAnsi), so no
 * font file ships. A receipt is a page, so it is rendered whole into memory and sent with its length.
 */
import type { Language } from '@quern/core/i18n';
import en from '@quern/core/locales/en/receipts.json' with { type: 'json' };
import es from '@quern/core/locales/es/receipts.json' with { type: 'json' };
import { type Receipt, type ReceiptText, receiptRows } from '@quern/core/receipts';
import PDFDocument from 'pdfkit';

type ReceiptTexts = typeof en;
const texts: Record<Language, ReceiptTexts> = { en, es };

/** Looks up `a.b` in the namespace and fills its {{params}}; a missing text is an error, never a blank. */
export function receiptText(language: Language): ReceiptText {
  return (key, params = {}) => {
    const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], texts[language]);
    if (typeof found !== 'string') throw new Error(`No receipt text ${key}`);
    return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`Receipt text ${key} needs the parameter ${name}`);
      return value;
    });
  };
}

const LABEL_WIDTH = 150;
const MARGIN = 56;

export function renderReceiptPdf(receipt: Receipt, language: Language, company: string): Promise<Buffer> {
  const t = receiptText(language);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: language,
    info: { Title: `${t('title')} ${receipt.id}`, Author: company, Subject: t(`kinds.${receipt.kind}`) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#555555').text(company);
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').fontSize(22).fillColor('#111111').text(t('title'));
  doc
    .font('Helvetica')
    .fontSize(13)
    .fillColor('#333333')
    .text(t(`kinds.${receipt.kind}`));
  doc.moveDown(1);
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width, doc.y)
    .strokeColor('#cccccc')
    .stroke();
  doc.moveDown(0.8);
  for (const row of receiptRows(receipt, language, t)) {
    const y = doc.y;
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor('#555555')
      .text(row.label, MARGIN, y, { width: LABEL_WIDTH - 10 });
    const labelBottom = doc.y;
    doc
      .font(row.isId ? 'Courier' : 'Helvetica')
      .fontSize(11)
      .fillColor('#111111')
      .text(row.value, MARGIN + LABEL_WIDTH, y, { width: width - LABEL_WIDTH });
    doc.y = Math.max(doc.y, labelBottom) + 6;
  }
  doc.moveDown(1);
  doc.x = MARGIN;
  doc.font('Helvetica').fontSize(9).fillColor('#555555').text(t('issuedBy', { company }), { width });
  doc.text(t('keep'), { width });
  doc.end();
  return done;
}
