// The layering ADR 067 sets, read from the import lines of the sources: the wallet imports no
// other capability (only shared code and the i18n formatting), checkout and refunds do not import
// each other's way round (refunds may read checkout's order model, never the reverse), and no
// capability imports the audit that sits above them all; and no source of the wallet names a
// capability's transfer kind or history purpose, which each capability owns (ADR 074, 077, 078).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { transactionPurposeKinds } from '@quern/core/history';
import { transferReferenceKinds } from '@quern/core/transfer-references';
import { describe, expect, it } from 'vitest';

const CORE_SRC = resolve(import.meta.dirname, '..', 'core', 'src');

const isTest = (file: string): boolean => file.endsWith('.spec.ts');

/** The core folders each non-test source file of `folder` imports (`'../x/...'` gives `x`). */
function importedFolders(folder: string): Array<{ file: string; imported: string }> {
  const found: Array<{ file: string; imported: string }> = [];
  for (const file of readdirSync(join(CORE_SRC, folder))) {
    if (!file.endsWith('.ts') || isTest(file)) continue;
    const text = readFileSync(join(CORE_SRC, folder, file), 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'\.\.\/([^/']+)\//g))
      found.push({ file: `${folder}/${file}`, imported: match[1] as string });
  }
  return found;
}

const offending = (folder: string, allowed: readonly string[]) =>
  importedFolders(folder)
    .filter(({ imported }) => !allowed.includes(imported))
    .map(({ file, imported }) => `${file} imports ${imported}`);

const CAPABILITIES = readdirSync(CORE_SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['shared', 'i18n', 'audit'].includes(entry.name))
  .map((entry) => entry.name);

describe('core layering (ADR 067)', () => {
  it('given the wallet sources, then they import only shared code and the i18n formatting', () => {
    expect(importedFolders('wallet').map(({ imported }) => imported)).toContain('shared');
    expect(offending('wallet', ['shared', 'i18n'])).toEqual([]);
  });

  it('given the checkout sources, then none imports refunds', () => {
    expect(importedFolders('refunds').map(({ imported }) => imported)).toContain('checkout');
    expect(importedFolders('checkout').filter(({ imported }) => imported === 'refunds')).toEqual([]);
  });

  it('given every capability, then none imports the audit above it', () => {
    expect(CAPABILITIES).toContain('wallet');
    expect(CAPABILITIES.flatMap((folder) => importedFolders(folder).filter(({ imported }) => imported === 'audit'))).toEqual([]);
  });

  // No file of the wallet, its rules or its shapes, names a kind of reference or of history purpose:
  // the kinds, their terms and their purposes are their capabilities' (ADR 074, 077, 078).
  it("given every source of the wallet, then none names a kind of transfer reference or purpose: they are their capabilities'", () => {
    const kinds = [...transferReferenceKinds, ...transactionPurposeKinds];
    expect(kinds).toContain('checkout');
    expect(kinds).toContain('subscription_charge');
    const named = readdirSync(join(CORE_SRC, 'wallet'))
      .filter((file) => file.endsWith('.ts') && !isTest(file))
      .flatMap((file) => {
        const text = readFileSync(join(CORE_SRC, 'wallet', file), 'utf8');
        return kinds.filter((kind) => text.includes(`'${kind}'`) || text.includes(`kind: ${kind}`)).map((kind) => `${file} names ${kind}`);
      });
    expect(named).toEqual([]);
  });
});
