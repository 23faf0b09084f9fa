// Proves signed monthly statements over real HTTP, SQLite and Redis (ADR 090): a closed month's statement states its opening balance, every movement and its closing balance and totals; it verifies with `npm run verify-statement` and with the node:crypto lines of docs/statements.md (run exactly as documented), and both name the row of a changed amount or a removed row and refuse a re-signed chain; CSV and PDF (read back with pdfjs) carry the JSON's totals; asking again answers the same bytes in every format, also after a shopper in the month deleted their account, and the statement still verifies then; another merchant's key sees only its own statement; malformed, future and open months answer as documented.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '@quern/core';
import { formatInteger } from '@quern/core/i18n/format';
import type { Statement } from '@quern/core/statements';
import { SYSTEM_WALLET_IDS, sendMlx, settleInternalTransfer } from '@quern/core/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletDepsFor } from '../../test/ledger.js';
import { pdfPagesText } from '@quern/test-support/pdf-text';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');
const DAY_MS = 86_400_000;

/** The ledger's clock: the system's, moved by the test into past months. */
const ledgerClock: Clock & { offsetMs: number } = { offsetMs: 0, now: (): Date => new Date(Date.now() + ledgerClock.offsetMs) };
const at = (ms: number) => {
  ledgerClock.offsetMs = ms - Date.now();
};

const monthText = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const thisMonthStart = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1);
/** M-1, M, M+1: three past months, the last one closed more than an hour ago. */
const stated = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 2, 1);
const before = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 3, 1);
const after = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1);
const MONTH = monthText(stated);

let quern: TestQuern;
let merchant: TestUser;
let shopper: TestUser;
let other: TestUser;
let merchantKey: string;
let otherKey: string;
let dir: string;

/** A send between wallets at the ledger's time, settled at once, as the app settles internal sends. */
async function send(fromWalletId: string, toAddress: string, amount: bigint, fee = 1000n) {
  const deps = {
    ...walletDepsFor(quern.store),
    clock: ledgerClock,
    newId: randomUUID,
    newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
  };
  const sent = await sendMlx(deps, fromWalletId, { to: { kind: 'address', address: toAddress }, amount, fee });
  await settleInternalTransfer(deps, fromWalletId, sent.transferId);
}

const statement = (key: string, month: string, query = '') =>
  fetch(`${quern.url}/api/v1/statements/${month}${query}`, { headers: { authorization: `Bearer ${key}` } });
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
type JsonStatement = Statement & { livemode: boolean };
const jsonOf = async (response: Response): Promise<JsonStatement> => (await response.json()) as JsonStatement;
const errorOf = async (response: Response) => ((await response.json()) as { error: unknown }).error;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', API_KEY_REQUESTS_PER_MINUTE: '1000' }, { ledgerClock });
  dir = mkdtempSync(join(tmpdir(), 'quern-statements-'));
  // Wallets open at the ledger's time too: the log's times rise with each wallet's revisions.
  at(before + DAY_MS);
  merchant = await registerUser(quern, 'stmt_shop', { verified: false });
  shopper = await registerUser(quern, 'stmt_shopper', { verified: false });
  other = await registerUser(quern, 'stmt_other', { verified: false });
  merchantKey = await generateApiKey(quern, merchant);
  otherKey = await generateApiKey(quern, other);

  at(before + 3 * DAY_MS);
  await send(SYSTEM_WALLET_IDS.reserve, merchant.address, 1_000_000n);
  at(stated + 2 * DAY_MS);
  await send(SYSTEM_WALLET_IDS.reserve, shopper.address, 61_000n);
  at(stated + 5 * DAY_MS);
  await send(shopper.id, merchant.address, 40_000n);
  at(stated + 9 * DAY_MS);
  await send(merchant.id, other.address, 100_000n);
  at(stated + 20 * DAY_MS);
  await send(shopper.id, merchant.address, 10_000n);
  at(after + DAY_MS);
  // The shopper's last MLX leave in the next month, so the account can be deleted (ADR 042).
  await send(shopper.id, merchant.address, 8_000n);
  ledgerClock.offsetMs = 0;
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await quern?.stop();
});

/** Writes a (possibly altered) statement to a file and runs `npm run verify-statement` on it. */
async function verifyByScript(json: unknown, ...args: string[]) {
  const file = join(dir, `${randomUUID()}.json`);
  writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
  try {
    const { stdout } = await run('npm', ['run', '--silent', 'verify-statement', '--', file, ...args], { cwd: ROOT });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

/** The node:crypto lines of docs/statements.md, exactly as documented, run with node on a statement file. */
async function verifyByDocumentedLines(json: unknown, publicKey: string) {
  const doc = readFileSync(join(ROOT, 'docs/statements.md'), 'utf8');
  const block = /<!-- statement-check:start -->\n```js\n([\s\S]*?)```\n<!-- statement-check:end -->/.exec(doc)?.[1];
  expect(block, 'the documented check').toBeDefined();
  const script = join(dir, 'check.mjs');
  writeFileSync(script, block!);
  const file = join(dir, `${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(json));
  try {
    const { stdout } = await run(process.execPath, [script, file, publicKey]);
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

/** A tiny RFC 4180 reader: quoted cells may hold commas, quotes are doubled. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split('\r\n').filter((l) => l !== '')) {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quoted && c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = !quoted;
      else if (c === ',' && !quoted) {
        cells.push(cell);
        cell = '';
      } else cell += c;
    }
    cells.push(cell);
    rows.push(cells);
  }
  return rows;
}

describe('a closed month', () => {
  it('states the opening balance, every movement of the month in order, the closing balance and the totals by kind', async () => {
    const response = await statement(merchantKey, MONTH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const s = await jsonOf(response);
    expect(s).toMatchObject({
      object: 'statement',
      livemode: false,
      merchant_id: merchant.id,
      month: MONTH,
      status: 'closed',
      currency: 'MLX',
    });
    expect(s.opening_balance).toBe('1000000');
    expect(
      s.rows.map((r: { kind: string; amount: string; fee: string; counterparty: string }) => [r.kind, r.amount, r.fee, r.counterparty]),
    ).toEqual([
      ['received', '40000', '0', 'stmt_shopper'],
      ['sent', '-100000', '1000', 'stmt_other'],
      ['received', '10000', '0', 'stmt_shopper'],
    ]);
    expect(s.rows.map((r: { seq: string }) => r.seq)).toEqual(['1', '2', '3']);
    expect(s.rows[0]!.counterparty_address).toBe(shopper.address);
    expect(s.rows[0]!.counterparty_wallet).toBe(shopper.id);
    expect(s.rows.map((r: { balance_after: string }) => r.balance_after)).toEqual(['1040000', '939000', '949000']);
    expect(s.closing_balance).toBe('949000');
    expect(s.totals).toEqual({
      credits: '50000',
      debits: '100000',
      fees: '1000',
      by_kind: [
        { kind: 'received', count: 2, amount: '50000', fee: '0' },
        { kind: 'sent', count: 1, amount: '-100000', fee: '1000' },
      ],
    });
    // Every row names the log event it states.
    const events = await quern.store.readStream(`wallet-${merchant.id}`);
    for (const row of s.rows) expect(events.find((e) => e.id === row.event_id)?.position.toString()).toBe(row.position);
  });

  it('verifies with npm run verify-statement (key from the URL) and with the documented node:crypto lines', async () => {
    const s = await jsonOf(await statement(merchantKey, MONTH));
    const key = (await quern.call('GET', '/api/v1/statement-key')).body;
    expect(key).toMatchObject({ object: 'statement_key', algorithm: 'Ed25519', public_key: s.signature.public_key });
    expect(key.public_key_pem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const script = await verifyByScript(s, '--url', quern.url);
    expect(script.code, script.out).toBe(0);
    expect(script.out).toContain(`Verified: statement of ${merchant.id} for ${MONTH} (closed), 3 rows`);
    const documented = await verifyByDocumentedLines(s, key.public_key);
    expect(documented.code, documented.out).toBe(0);
    expect(documented.out).toContain(`verified: ${MONTH}, 3 rows, closing balance 949000`);
  });

  it('names the row of a changed amount, and of a removed row, and refuses a chain re-hashed without the key', async () => {
    const s = await jsonOf(await statement(merchantKey, MONTH));
    const key = s.signature.public_key as string;

    const changed = structuredClone(s);
    changed.rows[1]!.amount = '-10000';
    const byScript = await verifyByScript(changed, '--key', key);
    expect(byScript.code).toBe(1);
    expect(byScript.out).toContain('Row 2 (event');
    expect((await verifyByDocumentedLines(changed, key)).out).toContain('row 2 differs from what was signed');

    const removed = structuredClone(s);
    removed.rows.splice(1, 1);
    const removedByScript = await verifyByScript(removed, '--key', key);
    expect(removedByScript.code).toBe(1);
    expect(removedByScript.out).toContain('Row 2 was removed');
    expect((await verifyByDocumentedLines(removed, key)).out).toContain('row 2 differs from what was signed');

    // Someone who recomputes every hash after changing the amount still cannot sign.
    const { checkStatementChain, headerHash, hexOf, nextChainHash } = await import('@quern/core/statements');
    const forged = structuredClone(s);
    forged.rows[2]!.amount = '20000';
    forged.rows[2]!.balance_after = '959000';
    forged.closing_balance = '959000';
    forged.totals = {
      ...forged.totals,
      credits: '60000',
      by_kind: [{ ...forged.totals.by_kind[0]!, amount: '60000' }, forged.totals.by_kind[1]!],
    };
    let hash = headerHash(forged);
    for (const row of forged.rows) {
      hash = nextChainHash(hash, row);
      row.hash = hexOf(hash);
    }
    forged.signature.last_hash = hexOf(hash);
    expect(checkStatementChain(forged).ok).toBe(true);
    const forgedByScript = await verifyByScript(forged, '--key', key);
    expect(forgedByScript.code).toBe(1);
    expect(forgedByScript.out).toContain('The signature does not verify');
    expect((await verifyByDocumentedLines(forged, key)).out).toContain('the signature does not verify');

    const wrongKey = await verifyByScript(s, '--key', Buffer.alloc(32, 7).toString('base64'));
    expect(wrongKey.code).toBe(1);
    expect((await verifyByScript('not json')).code).toBe(1);
  }, 60_000);

  it('answers CSV with the same rows and totals as the JSON, in English and Spanish', async () => {
    const s = await jsonOf(await statement(merchantKey, MONTH));
    const en = await statement(merchantKey, MONTH, '?format=csv');
    expect(en.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(en.headers.get('content-disposition')).toBe(`attachment; filename="quern-statement-${MONTH}-en.csv"`);
    const rows = csvRows(await en.text());
    expect(rows[0]?.slice(0, 4)).toEqual(['#', 'Time (UTC)', 'Kind', 'Counterparty']);
    expect(rows[1]?.[2]).toBe('Opening balance');
    expect(rows[1]?.[10]).toBe(s.opening_balance);
    const movements = rows.filter((r) => /^[0-9]+$/.test(r[0] ?? '') && r[13]?.length === 64);
    expect(movements.map((r) => [r[7], r[8], r[10], r[13]])).toEqual(
      s.rows.map((r: { amount: string; fee: string; balance_after: string; hash: string }) => [r.amount, r.fee, r.balance_after, r.hash]),
    );
    expect(rows.find((r) => r[2] === 'Closing balance')?.[10]).toBe(s.closing_balance);
    expect(rows.find((r) => r[2] === 'Totals by kind: Received')?.slice(7, 9)).toEqual(['50000', '0']);
    expect(rows.find((r) => r[2] === 'Totals by kind: Sent')?.slice(7, 9)).toEqual(['-100000', '1000']);
    expect(rows.find((r) => r[2] === 'Money in')?.[7]).toBe(s.totals.credits);
    expect(rows.find((r) => r[2] === 'Fees')?.[8]).toBe(s.totals.fees);

    // Accept picks the form too; Spanish labels, the same numbers.
    const es = await fetch(`${quern.url}/api/v1/statements/${MONTH}?lang=es`, {
      headers: { authorization: `Bearer ${merchantKey}`, accept: 'text/csv' },
    });
    const esRows = csvRows(await es.text());
    expect(esRows[0]?.slice(0, 4)).toEqual(['#', 'Hora (UTC)', 'Tipo', 'Contraparte']);
    expect(esRows.find((r) => r[2] === 'Saldo final')?.[10]).toBe(s.closing_balance);
    expect(esRows.find((r) => r[2] === 'Totales por tipo: Recibido')?.[7]).toBe('50000');
  });

  it('answers a PDF whose text, read back, carries the JSON figures, in English and Spanish', async () => {
    const s = await jsonOf(await statement(merchantKey, MONTH));
    for (const [lang, title, closing, fees] of [
      ['en', 'Monthly statement', 'Closing balance', 'Fees'],
      ['es', 'Extracto mensual', 'Saldo final', 'Comisiones'],
    ] as const) {
      const response = await statement(merchantKey, MONTH, `?format=pdf&lang=${lang}`);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const text = (await pdfPagesText(await bytesOf(response))).join('\n');
      const mlx = (units: string) => formatInteger(BigInt(units), lang);
      expect(text).toContain(title);
      expect(text).toMatch(new RegExp(`${closing}:\\s*${mlx(s.closing_balance).replace('.', '\\.')} MLX`));
      expect(text).toMatch(new RegExp(`${fees}:\\s*${mlx(s.totals.fees).replace('.', '\\.')} MLX`));
      for (const row of s.rows) expect(text).toContain(mlx(row.balance_after));
      expect(text).toContain(s.signature.last_hash);
      expect(text).toContain('stmt_shopper');
    }
  });

  it('answers the same bytes when asked again, in every form, and still after a shopper in it deleted their account', async () => {
    const forms = ['', '?format=csv', '?format=csv&lang=es', '?format=pdf', '?format=pdf&lang=es'];
    const first = await Promise.all(forms.map(async (form) => bytesOf(await statement(merchantKey, MONTH, form))));
    const again = await Promise.all(forms.map(async (form) => bytesOf(await statement(merchantKey, MONTH, form))));
    for (const [i, bytes] of again.entries()) expect(bytes.equals(first[i]!), forms[i]).toBe(true);

    await eventually(async () => {
      const balance = await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie });
      return balance.body.stable === '0' ? true : undefined;
    });
    const deleted = await quern.call('POST', `/api/user/delete/${shopper.id}`, {
      cookie: shopper.cookie,
      body: { password: 'long enough secret' },
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await quern.store.readStream(`user-${shopper.id}`)).some((e) => e.type === 'UserAccountDeleted')).toBe(true);

    const afterDeletion = await Promise.all(forms.map(async (form) => bytesOf(await statement(merchantKey, MONTH, form))));
    for (const [i, bytes] of afterDeletion.entries()) expect(bytes.equals(first[i]!), forms[i]).toBe(true);
    const s = JSON.parse(afterDeletion[0]!.toString('utf8')) as JsonStatement;
    expect(s.rows[0]!.counterparty).toBe('stmt_shopper');
    const verified = await verifyByScript(s, '--key', s.signature.public_key);
    expect(verified.code, verified.out).toBe(0);
    expect((await verifyByDocumentedLines(s, s.signature.public_key)).code).toBe(0);
  }, 60_000);
});

describe('who sees which statement, and which months', () => {
  it("answers another merchant's key its own statement only, and 401 without a key", async () => {
    const s = await jsonOf(await statement(otherKey, MONTH));
    expect(s.merchant_id).toBe(other.id);
    expect(s.rows.map((r: { amount: string; counterparty: string }) => [r.amount, r.counterparty])).toEqual([['100000', 'stmt_shop']]);
    expect(JSON.stringify(s)).not.toContain(shopper.id);
    expect((await fetch(`${quern.url}/api/v1/statements/${MONTH}`)).status).toBe(401);
  });

  it('answers 400 for a malformed month or format, 422 for a month not started, and the current month open', async () => {
    for (const month of ['2026-13', '2026-1', 'abcd-ef', '1999-12']) {
      const response = await statement(merchantKey, month);
      expect(response.status, month).toBe(400);
      expect(await errorOf(response)).toMatchObject({ message: 'Write the month as YYYY-MM, for example 2026-03.' });
    }
    expect((await statement(merchantKey, MONTH, '?format=xml')).status).toBe(400);
    expect((await statement(merchantKey, MONTH, '?lang=fr')).status).toBe(400);
    const future = await statement(merchantKey, monthText(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)));
    expect(future.status).toBe(422);
    expect(await errorOf(future)).toMatchObject({ message: 'That month has not started yet, so it has no statement.' });

    const current = await jsonOf(await statement(merchantKey, monthText(thisMonthStart)));
    expect(current).toMatchObject({ status: 'open', opening_balance: '957000' });
    const verified = await verifyByScript(current, '--key', current.signature.public_key);
    expect(verified.code, verified.out).toBe(0);
    // The month after the stated one opens where it closed.
    const next = await jsonOf(await statement(merchantKey, monthText(after)));
    expect(next).toMatchObject({ status: 'closed', opening_balance: '949000', closing_balance: '957000' });
  });

  it('downloads through the session for the web app, and refuses without one', async () => {
    const response = await fetch(`${quern.url}/api/quern/statements/${MONTH}?format=json`, { headers: { cookie: merchant.cookie } });
    expect(response.status).toBe(200);
    expect((await jsonOf(response)).merchant_id).toBe(merchant.id);
    expect((await fetch(`${quern.url}/api/quern/statements/${MONTH}`)).status).toBe(401);
  });
});
