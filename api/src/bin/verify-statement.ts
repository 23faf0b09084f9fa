/**
 * `npm run verify-statement -- statement.json [--key <base64 | PEM file>] [--url <Quern URL>]`:
 * checks a statement offline (ADR 090). The key Quern signs with is taken from `--key` (the raw
 * public key in base64, or a file holding it or its PEM), or fetched from `--url`'s
 * /api/v1/statement-key; without either, the key the statement names is used and the output says
 * to compare it with the published one. Exits 0 for a true statement, 1 naming the first row that
 * differs or the failing signature, 2 when the input or the key cannot be read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { publicKeyOf } from '../statements/signing-key.js';
import { verifyStatementText } from '../statements/verify.js';

async function trustedKeyText(options: { key?: string; url?: string }): Promise<string | undefined> {
  if (options.key !== undefined) return existsSync(options.key) ? readFileSync(options.key, 'utf8') : options.key;
  if (options.url === undefined) return undefined;
  const response = await fetch(`${options.url.replace(/\/$/, '')}/api/v1/statement-key`);
  if (!response.ok) throw new Error(`${options.url} answered ${response.status} for its statement key`);
  const body = (await response.json()) as { public_key?: unknown };
  if (typeof body.public_key !== 'string') throw new Error(`${options.url} answered no public_key`);
  return body.public_key;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { key: { type: 'string' }, url: { type: 'string' } },
  });
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) {
    console.error('Usage: npm run verify-statement -- statement.json [--key <base64 | PEM file>] [--url <Quern URL>]');
    return 2;
  }
  let text: string;
  let keyText: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
    keyText = await trustedKeyText(values);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  let key: ReturnType<typeof publicKeyOf> | undefined;
  try {
    key = keyText === undefined ? undefined : publicKeyOf(keyText);
  } catch (error) {
    console.error(`The key cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const verdict = verifyStatementText(text, key);
  if (!verdict.ok) {
    console.error(`NOT VERIFIED: ${verdict.problem}`);
    return 1;
  }
  const s = verdict.statement;
  console.log(
    `Verified: statement of ${s.merchant_id} for ${s.month} (${s.status}), ${s.rows.length} ${s.rows.length === 1 ? 'row' : 'rows'}, opening ${s.opening_balance} MLX, closing ${s.closing_balance} MLX.`,
  );
  if (key === undefined)
    console.log(
      `Checked with the key the statement names (${s.signature.public_key}): compare it with GET /api/v1/statement-key of its Quern.`,
    );
  return 0;
}

process.exitCode = await main();
