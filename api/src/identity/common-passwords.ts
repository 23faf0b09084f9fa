/**
 * The common-password list for the password policy: the 49,000 most common passwords that the
 * zxcvbn-ts project maintains (@zxcvbn-ts/language-common, MIT), read from the package's plain
 * JSON source rather than its compressed runtime module. Loaded once, on the first check, into a
 * Set of lower-case entries, so a password differing only in case counts as common too.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IsCommonPassword } from '@quern/core/identity';

const LIST_MODULE = '@zxcvbn-ts/language-common/src/passwords.json';

let passwords: ReadonlySet<string> | undefined;

export function loadCommonPasswords(): ReadonlySet<string> {
  if (!passwords) {
    const path = createRequire(import.meta.url).resolve(LIST_MODULE);
    const list: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!Array.isArray(list) || list.length < 10_000) throw new Error(`${LIST_MODULE} is not a list of common passwords`);
    passwords = new Set(list.map((entry) => String(entry).toLowerCase()));
  }
  return passwords;
}

export const isCommonPassword: IsCommonPassword = (password) => loadCommonPasswords().has(password.toLowerCase());
