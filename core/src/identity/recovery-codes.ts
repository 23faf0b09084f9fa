/**
 * Recovery codes (ADR 045). A code is 20 base32 characters shown as five groups of four: the first
 * group is the code's name, random but not secret, and the other 16 (80 bits) are its secret. The
 * log keeps each code as `<name>:<argon2id PHC string>` in one field sealed with the account's key
 * (@quern/core/personal-data), so a reader of the log sees neither codes nor hashes, and a stolen
 * key still leaves a slow, salted hash per code. The name picks the one hash a typed code is
 * checked against, so a try costs one argon2id verification, not one per code left.
 *
 * Enrollments recorded before this (TwoFactorEnabled) kept 10 hex characters per code as unsalted
 * SHA-256; those codes keep working, once each, until two-factor is turned on again.
 */
import type { PasswordHasher } from './ports.js';

export const RECOVERY_CODE_NAME_CHARS = 4;
export const RECOVERY_CODE_SECRET_CHARS = 16;
export const RECOVERY_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export type RecoveryCodeRecord =
  /** The current shape: checked by name, then against its argon2id hash. */
  | { kind: 'argon2id'; name: string; hash: string }
  /** The earlier shape: the SHA-256 of the normalized hex code. */
  | { kind: 'sha256'; hash: string };

/** A code as typed: spaces and dashes dropped, upper case (the earlier hex codes are matched in lower case). */
export const normalizeRecoveryCode = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase();

const CURRENT_SHAPE = new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{${RECOVERY_CODE_NAME_CHARS + RECOVERY_CODE_SECRET_CHARS}}$`);

/** The name of a code as typed, when it has the current shape. */
export function recoveryCodeName(typed: string): string | undefined {
  const normalized = normalizeRecoveryCode(typed);
  return CURRENT_SHAPE.test(normalized) ? normalized.slice(0, RECOVERY_CODE_NAME_CHARS) : undefined;
}

/** The recorded field: one `<name>:<hash>` per code, separated by spaces (PHC strings hold neither). */
export const encodeRecoveryCodes = (codes: ReadonlyArray<{ name: string; hash: string }>): string =>
  codes.map((c) => `${c.name}:${c.hash}`).join(' ');

/** The recorded field read back; a value that is not ours (erased) reads as no codes. */
export function decodeRecoveryCodes(field: string): RecoveryCodeRecord[] {
  const records: RecoveryCodeRecord[] = [];
  for (const entry of field.split(' ')) {
    const colon = entry.indexOf(':');
    if (colon !== RECOVERY_CODE_NAME_CHARS) return [];
    records.push({ kind: 'argon2id', name: entry.slice(0, colon), hash: entry.slice(colon + 1) });
  }
  return records;
}

/** Hashes fresh codes for the log, each with its own salt (argon2id through the password hasher). */
export async function hashRecoveryCodes(hasher: PasswordHasher, codes: readonly string[]): Promise<Array<{ name: string; hash: string }>> {
  return Promise.all(
    codes.map(async (code) => {
      const normalized = normalizeRecoveryCode(code);
      return { name: normalized.slice(0, RECOVERY_CODE_NAME_CHARS), hash: await hasher.hash(normalized) };
    }),
  );
}

/**
 * The index of the unused code a typed one matches, or undefined. A code of the current shape
 * costs exactly one argon2id verification, against a dummy hash when its name is unknown or used,
 * so a wrong name answers as slowly as a wrong secret; any other text is tried against the earlier
 * SHA-256 codes only.
 */
export async function matchRecoveryCode(
  hasher: PasswordHasher,
  earlierHash: (typed: string) => string,
  records: readonly RecoveryCodeRecord[],
  used: ReadonlySet<number>,
  typed: string,
): Promise<number | undefined> {
  const name = recoveryCodeName(typed);
  if (name !== undefined) {
    const index = records.findIndex((r, i) => r.kind === 'argon2id' && r.name === name && !used.has(i));
    const record = records[index];
    const valid = await hasher.verify(record?.hash, normalizeRecoveryCode(typed));
    return valid && record ? index : undefined;
  }
  const hash = earlierHash(typed);
  const index = records.findIndex((r, i) => r.kind === 'sha256' && r.hash === hash && !used.has(i));
  return index < 0 ? undefined : index;
}
