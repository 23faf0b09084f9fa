/**
 * What the key vault seals with which master key (ADR 042, ADR 055). Each purpose has its own
 * key derived from the master key and its own context, so a value sealed for one purpose never
 * opens as another. Shared by the vault and by the rotation, which re-wraps with the same rules.
 */
import { openBytes, sealBytes } from './cipher.js';
import { deriveKey } from './master-key.js';

const WRAP_PURPOSE = 'personal-data account-key wrapping v1';
const BRIDGE_PURPOSE = 'personal-data master-key bridge v1';
const SECRET_PURPOSE = 'personal-data vault secret v1';
/** How the identity-key digest key was derived before rotation existed; kept for vaults never rotated. */
export const LEGACY_DIGEST_PURPOSE = 'identity-key digest v1';
/** The vault secret holding the identity-key digest key once a rotation has happened. */
export const DIGEST_SECRET = 'identity-key digest';

export const wrapKeyOf = (master: Buffer): Buffer => deriveKey(master, WRAP_PURPOSE);

export const wrapAccountKey = (wrapKey: Buffer, owner: string, key: Buffer): Buffer => sealBytes(wrapKey, `account-key\u0000${owner}`, key);
export const unwrapAccountKey = (wrapKey: Buffer, owner: string, wrapped: Buffer): Buffer =>
  openBytes(wrapKey, `account-key\u0000${owner}`, wrapped);

/** The rotation's target key sealed under its source key, so processes holding the source learn the target. */
export const sealBridge = (from: Buffer, toId: string, to: Buffer): Buffer =>
  sealBytes(deriveKey(from, BRIDGE_PURPOSE), `master-key\u0000${toId}`, to);
export const openBridge = (from: Buffer, toId: string, sealed: Buffer): Buffer =>
  openBytes(deriveKey(from, BRIDGE_PURPOSE), `master-key\u0000${toId}`, sealed);

export const sealSecret = (master: Buffer, name: string, value: Buffer): Buffer =>
  sealBytes(deriveKey(master, SECRET_PURPOSE), `vault-secret\u0000${name}`, value);
export const openSecret = (master: Buffer, name: string, sealed: Buffer): Buffer =>
  openBytes(deriveKey(master, SECRET_PURPOSE), `vault-secret\u0000${name}`, sealed);
