/**
 * Checks a statement file offline (ADR 090): its shape, its hash chain row by row (naming the
 * first row that differs), its balances and totals against its rows, and its Ed25519 signature,
 * with the public key the caller trusts. What `npm run verify-statement` runs.
 */
import type { KeyObject } from 'node:crypto';
import { checkStatementChain, type Statement, statementSchema } from '@quern/core/statements';
import { publicKeyOf, verifySignature } from './signing-key.js';

export type StatementVerdict = { ok: true; statement: Statement } | { ok: false; problem: string; row?: number };

export function verifyStatementText(text: string, trustedKey: KeyObject | undefined): StatementVerdict {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'The file is not JSON' };
  }
  const parsed = statementSchema.safeParse(json);
  if (!parsed.success)
    return { ok: false, problem: `The file is not a Quern statement: ${parsed.error.issues[0]?.path.join('.') ?? ''} is malformed` };
  const statement = parsed.data;
  const chain = checkStatementChain(statement);
  if (!chain.ok) return chain;
  const key = trustedKey ?? publicKeyOf(statement.signature.public_key);
  if (!verifySignature(key, chain.message, statement.signature.value))
    return { ok: false, problem: 'The signature does not verify: the statement was changed after signing, or another key signed it' };
  return { ok: true, statement };
}
