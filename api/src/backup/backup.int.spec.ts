// Proves `npm run backup` and `npm run restore` (ADR 054): a backup taken by its own process while
// a running Quern registers accounts and moves MLX is restored into another DATA_DIR and a fresh
// Redis; a Quern started there shows every balance and every account of the source as of the
// backup's last position, signs its users in by e-mail (the key vault and the master key came
// along), and audits clean. A tampered or incomplete backup, a non-empty DATA_DIR and a
// non-empty backup folder are refused, naming the fault, and leave DATA_DIR empty.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRawEventStore } from '@quern/adapters/eventstore';
import { balanceOf, initialWalletState, toWalletEvent, type WalletState } from '@quern/core/wallet';
import { createLedgerAuditor } from '@quern/core/audit';
import { getWalletBalance } from '@quern/projections';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { runCli } from '../../test/cli.js';
import { fundFromReserve } from '../../test/ledger.js';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser, userFactory } from '../../test/users.js';
import { type Manifest, MANIFEST_FILE } from './manifest.js';
import { RestoreRefused, restoreBackup } from './restore-backup.js';
import { evolve } from '@quern/core/wallet/testing';

const root = mkdtempSync(join(tmpdir(), 'quern-backup-spec-'));
const env = { REGISTRATIONS_PER_IP_HOUR: '10000', MILLIX_CONFIRM_DELAY_MS: '0' };
let source: TestQuern;
const seeded: TestUser[] = [];
const newUser = userFactory({ userPrefix: 'bkp', emailPrefix: 'bkp', area: '555' }).newUser;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  source = await startTestQuern(env);
  for (let i = 0; i < 5; i += 1) {
    const user = await registerUser(source, `backup_seed_${Date.now() % 100_000}_${i}`, { verified: false });
    await fundFromReserve(source.store, user.address, 5_000_000n);
    seeded.push(user);
  }
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await source?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Sign-ups and sends against the source until stopped; returns how many of each succeeded. */
function startLoad(quern: TestQuern) {
  let running = true;
  const counts = { registrations: 0, sends: 0 };
  const signUps = (async () => {
    while (running) {
      const response = await quern.call('POST', '/api/user/register', { body: newUser() });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      counts.registrations += 1;
    }
  })();
  const sends = seeded.map(async (payer, i) => {
    const payee = seeded[(i + 1) % seeded.length] as TestUser;
    while (running) {
      const response = await quern.call('POST', '/api/millix/send', {
        cookie: payer.cookie,
        body: { to: payee.name, amount: String(1 + i), fee: '1000' },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      counts.sends += 1;
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all([signUps, ...sends]);
      return counts;
    },
  };
}

/** The source's log as of `position`: every wallet's state, the accounts, and the audit's figures. */
async function sourceAsOf(dataDir: string, position: bigint) {
  const raw = openRawEventStore({ dataDir });
  const wallets = new Map<string, WalletState>();
  const auditor = createLedgerAuditor();
  let accounts = 0;
  try {
    let after: bigint | undefined;
    for (;;) {
      const page = await raw.readAll({ after, maxCount: 2_000 });
      for (const event of page) {
        if (event.position > position) return { wallets, accounts, audit: auditor.summary() };
        auditor.add({ streamId: event.streamId, type: event.type, data: event.data, position: event.position });
        if (event.type === 'UserRegistered') accounts += 1;
        const walletEvent = event.streamId.startsWith('wallet-') ? toWalletEvent(event) : undefined;
        if (walletEvent)
          wallets.set(
            event.streamId.slice('wallet-'.length),
            evolve(wallets.get(event.streamId.slice('wallet-'.length)) ?? initialWalletState(), walletEvent),
          );
      }
      if (page.length === 0) return { wallets, accounts, audit: auditor.summary() };
      after = page[page.length - 1]?.position;
    }
  } finally {
    await raw.close();
  }
}

async function lastPositionOf(quern: TestQuern): Promise<bigint> {
  let after = 0n;
  for (;;) {
    const page = await quern.store.readAll({ after, maxCount: 5_000 });
    if (page.length === 0) return after;
    after = page[page.length - 1]?.position as bigint;
  }
}

const newDir = (name: string) => join(root, name);

async function freshRedis(): Promise<RedisServer> {
  const redis = await startPrivateRedis();
  cleanups.push(() => redis.stop());
  return redis;
}

describe('npm run backup and npm run restore', () => {
  it('backs up under load; the restored copy has every balance and account as of the backup and audits clean', async () => {
    const before = await lastPositionOf(source);
    const load = startLoad(source);
    // Let the load get going, then back up while it runs.
    await new Promise((r) => setTimeout(r, 500));
    const backupDir = newDir('under-load');
    const backup = await runCli('backup', [backupDir], { DATA_DIR: source.dataDir });
    await new Promise((r) => setTimeout(r, 300));
    const counts = await load.stop();
    expect(backup.code, backup.stderr + backup.stdout).toBe(0);
    expect(counts.registrations).toBeGreaterThan(0);
    expect(counts.sends).toBeGreaterThan(0);

    const manifest = JSON.parse(readFileSync(join(backupDir, MANIFEST_FILE), 'utf8')) as Manifest;
    expect(manifest).toMatchObject({
      format: 'quern-backup',
      formatVersion: 1,
      mode: 'sandbox',
      eventStore: 'sqlite',
      personalDataKey: 'in-backup',
      appSecret: 'in-backup',
    });
    const paths = manifest.files.map((file) => file.path);
    for (const path of ['events.sqlite', 'personal-data-keys.sqlite', 'personal-data-key', 'app-secret', 'simulated-network.sqlite'])
      expect(paths).toContain(path);
    expect(paths.some((path) => path.startsWith('outbox/'))).toBe(true);
    const position = BigInt(manifest.lastEventPosition as string);
    // Taken while the load was writing: the copy ends after where the load started and before where it ended.
    expect(position).toBeGreaterThan(before);
    expect(await lastPositionOf(source)).toBeGreaterThan(position);
    expect(readFileSync(join(backupDir, 'SHA256SUMS'), 'utf8')).toContain(`${manifest.files[0]?.sha256}  ${manifest.files[0]?.path}`);

    const restoredDir = newDir('restored');
    const redis = await freshRedis();
    const restore = await runCli('restore', [backupDir], { DATA_DIR: restoredDir, REDIS_URL: redis.url });
    expect(restore.code, restore.stderr + restore.stdout).toBe(0);
    expect(restore.stdout).toContain(`up to position ${position}`);

    const expected = await sourceAsOf(source.dataDir, position);
    // The audit, on the restored copy before anything runs on it, finds the source's figures at that position.
    const audit = await runCli('audit', [], { DATA_DIR: restoredDir });
    expect(audit.code, audit.stdout + audit.stderr).toBe(0);
    expect(audit.stdout).toContain('audit: OK');
    const summary = expected.audit;
    expect(summary.ok).toBe(true);
    expect(audit.stdout).toContain(
      `events read: ${summary.eventCount} (${summary.walletEventCount} wallet events, ${summary.walletCount} wallets)`,
    );
    expect(audit.stdout).toContain(
      `transfers: ${summary.transfers.reserved} reserved, ${summary.transfers.posted} posted, ${summary.transfers.voided} voided, ${summary.transfers.open} open`,
    );

    const restored = await startTestQuern({ ...env, DATA_DIR: restoredDir, REDIS_URL: redis.url });
    cleanups.push(() => restored.stop());
    const reader = new Redis(redis.url);
    cleanups.push(async () => reader.disconnect());
    expect(expected.wallets.size).toBeGreaterThan(seeded.length);
    for (const [walletId, state] of expected.wallets) {
      const { stableMlx, unstableMlx } = balanceOf(state);
      expect(await getWalletBalance(reader, walletId), walletId).toEqual({
        stable: stableMlx.toString(),
        unstable: unstableMlx.toString(),
      });
    }
    expect(await reader.hlen('rm:user-id-by-username')).toBe(expected.accounts);
    // The restored vault opens the e-mail sign-in (digest of the address) and the balance page.
    for (const user of seeded) {
      const login = await restored.call('POST', '/api/user/login', { body: { email: user.email, password: 'long enough secret' } });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      const balance = await restored.call('GET', `/api/millix/balance/${user.address}`, { cookie: cookieOf(login.setCookie) });
      expect(balance.status).toBe(200);
      const walletId = (await reader.hget('rm:wallet-id-by-address', user.address)) as string;
      expect(balance.body.stable).toBe(balanceOf(expected.wallets.get(walletId) as WalletState).stableMlx.toString());
    }
  }, 240_000);

  it('refuses a tampered or incomplete backup naming the file, and leaves DATA_DIR empty', async () => {
    const backupDir = newDir('quiet');
    expect((await runCli('backup', [backupDir], { DATA_DIR: source.dataDir })).code).toBe(0);
    const redis = await freshRedis();

    const vault = join(backupDir, 'personal-data-keys.sqlite');
    const original = readFileSync(vault);
    const tampered = Buffer.from(original);
    tampered[tampered.length - 100] = (tampered[tampered.length - 100] as number) ^ 0xff;
    writeFileSync(vault, tampered);
    const target = newDir('refused');
    const refused = await runCli('restore', [backupDir], { DATA_DIR: target, REDIS_URL: redis.url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('personal-data-keys.sqlite does not match its SHA-256');
    expect(readdirSafe(target)).toEqual([]);
    writeFileSync(vault, original);

    unlinkSync(join(backupDir, 'app-secret'));
    const incomplete = await runCli('restore', [backupDir], { DATA_DIR: target, REDIS_URL: redis.url });
    expect(incomplete.code).toBe(1);
    expect(incomplete.stderr).toContain('app-secret is missing');
    expect(readdirSafe(target)).toEqual([]);

    const unfinished = newDir('unfinished');
    expect((await runCli('backup', [unfinished], { DATA_DIR: source.dataDir })).code).toBe(0);
    unlinkSync(join(unfinished, MANIFEST_FILE));
    const noManifest = await runCli('restore', [unfinished], { DATA_DIR: target, REDIS_URL: redis.url });
    expect(noManifest.stderr).toContain('manifest.json is missing');
  }, 300_000);

  it('refuses a non-empty backup folder, a non-empty DATA_DIR, and a PERSONAL_DATA_KEY that is not the vault’s', async () => {
    const used = newDir('used');
    expect((await runCli('backup', [used], { DATA_DIR: source.dataDir })).code).toBe(0);
    const again = await runCli('backup', [used], { DATA_DIR: source.dataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not empty');

    const redis = await freshRedis();
    const occupied = mkdtempSync(join(root, 'occupied-'));
    writeFileSync(join(occupied, 'something'), 'x');
    const nonEmpty = await runCli('restore', [used], { DATA_DIR: occupied, REDIS_URL: redis.url });
    expect(nonEmpty.code).toBe(1);
    expect(nonEmpty.stderr).toContain('is not empty');

    const wrongKey = await runCli('restore', [used], {
      DATA_DIR: newDir('wrong-key'),
      REDIS_URL: redis.url,
      PERSONAL_DATA_KEY: 'ab'.repeat(32),
    });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/PERSONAL_DATA_KEY is the key with id [0-9a-f]{16}; the backed-up vault is wrapped under/);
  }, 300_000);

  it('refuses a backup taken in the other mode before reading its files, and leaves DATA_DIR empty', async () => {
    const sandboxBackup = newDir('sandbox-taken');
    expect((await runCli('backup', [sandboxBackup], { DATA_DIR: source.dataDir })).code).toBe(0);
    // Damaged too: the mode is refused first, without hashing every file.
    const vault = join(sandboxBackup, 'personal-data-keys.sqlite');
    const tampered = readFileSync(vault);
    tampered[tampered.length - 100] = (tampered[tampered.length - 100] as number) ^ 0xff;
    writeFileSync(vault, tampered);
    const target = newDir('live-target');
    // A live configuration is parsed only: the mode rules are not what this refusal is about.
    const live = loadConfig({ ...process.env, DATA_DIR: target, QUERN_MODE: 'live' }, { modeRules: false });
    const refusal = restoreBackup(live, sandboxBackup);
    await expect(refusal).rejects.toBeInstanceOf(RestoreRefused);
    await expect(refusal).rejects.toThrow('The backup was taken in sandbox mode and this Quern runs in live mode');
    expect(readdirSafe(target)).toEqual([]);
  }, 120_000);

  it('makes an existing empty backup folder owner-only, and refuses a folder inside DATA_DIR reached through a link', async () => {
    const existing = newDir('existing-open');
    mkdirSync(existing, { mode: 0o755 });
    chmodSync(existing, 0o755);
    const backup = await runCli('backup', [existing], { DATA_DIR: source.dataDir });
    expect(backup.code, backup.stderr + backup.stdout).toBe(0);
    expect(statSync(existing).mode & 0o777).toBe(0o700);

    const link = newDir('data-link');
    symlinkSync(source.dataDir, link);
    const inside = join(source.dataDir, 'backup-inside');
    const refused = await runCli('backup', [inside], { DATA_DIR: link });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is inside DATA_DIR');
    expect(readdirSafe(inside)).toEqual([]);
    // And the other way round: the backup folder named through a link into DATA_DIR.
    const intoData = newDir('into-data');
    symlinkSync(source.dataDir, intoData);
    const throughLink = await runCli('backup', [join(intoData, 'backup-inside')], { DATA_DIR: source.dataDir });
    expect(throughLink.code).toBe(1);
    expect(throughLink.stderr).toContain('is inside DATA_DIR');
  }, 120_000);
});

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
