/** Reads a PDF's text back with pdfjs-dist (the legacy build runs in Node), for tests that check what a PDF says. */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The standard fonts' metrics pdfjs reads for PDFs that embed none (Helvetica). */
const standardFontDataUrl = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Each page's text items, in reading order. */
async function pdfPageItems(bytes: Uint8Array): Promise<string[][]> {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl })
    .promise;
  const pages: string[][] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')));
  }
  await document.destroy();
  return pages;
}

/** One string per page, its items joined by spaces. */
export async function pdfPagesText(bytes: Uint8Array): Promise<string[]> {
  return (await pdfPageItems(bytes)).map((items) => items.join(' '));
}

/** The whole document's text, one item per line. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  return (await pdfPageItems(bytes)).flat().join('\n');
}
