/**
 * What sealing personal data costs (ADR 042), on the SQLite log with its production settings:
 *   (a) appending 10,000 registrations (4 sealed fields each) over 1,000 streams, 100 in flight,
 *       raw and through the personal-data layer (the first seal of an account creates its key);
 *   (b) reading the whole log back in pages of 1,000 (what a projection rebuild does), raw and
 *       opened, each field a key lookup and an AES-GCM open;
 *   (c) a mixed log, 10% registrations and 90% wallet events, read back opened (events without
 *       personal data pass through).
 * RUNS runs on fresh files; medians with min and max, and the sealed/raw ratio of each run.
 * Run: node --import tsx bench/personal-data.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore, NewEvent } from '@quern/core';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { openKeyVault, withPersonalDataSealing } from '@quern/adapters/personal-data';

const RUNS = 5;
const EVENTS = 10_000;
const STREAMS = 1_000;
const IN_FLIGHT = 100;
const PAGE = 1_000;
const masterKey = randomBytes(32);

const registration = (n: number): NewEvent => ({
  type: 'UserRegistered',
  data: {
    userId: `user-${n % STREAMS}`,
    username: `user_${n}`,
    firstName: 'Ada',
    lastName: `Lovelace ${n}`,
    email: `ada${n}@example.com`,
    phone: `+1555${String(n).padStart(7, '0')}`,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    registeredAt: '2026-11-24T10:00:00.000Z',
  },
});
const walletEvent = (n: number): NewEvent => ({
  type: 'TransferReserved',
  data: { walletId: `w-${n % STREAMS}`, transferId: `t-${n}`, amountMlx: '125000000', feeMlx: '1000' },
});

async function appendAll(store: EventStore, eventAt: (n: number) => NewEvent): Promise<number> {
  const started = process.hrtime.bigint();
  let next = 0;
  const lane = async () => {
    for (let n = next++; n < EVENTS; n = next++) await store.append(`s-${n % STREAMS}`, [eventAt(n)], 'any');
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return EVENTS / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function readAllOf(store: EventStore): Promise<number> {
  const started = process.hrtime.bigint();
  let after: bigint | undefined;
  let read = 0;
  for (;;) {
    const page = await store.readAll({ after, maxCount: PAGE });
    if (page.length === 0) break;
    read += page.length;
    after = page[page.length - 1]?.position;
  }
  return read / (Number(process.hrtime.bigint() - started) / 1e9);
}

function open(dir: string, sealed: boolean): EventStore {
  const raw = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
  return sealed ? withPersonalDataSealing(raw, openKeyVault(join(dir, 'keys.sqlite'), masterKey)) : raw;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const line = (label: string, xs: number[]) =>
  `${label.padEnd(44)} median ${Math.round(median(xs)).toLocaleString('en')} /s  (min ${Math.round(Math.min(...xs)).toLocaleString('en')}, max ${Math.round(Math.max(...xs)).toLocaleString('en')})`;

const root = mkdtempSync(join(tmpdir(), 'quern-bench-sealing-'));
const results: Record<string, number[]> = {};
const note = (key: string, value: number) => {
  results[key] ??= [];
  results[key].push(value);
};
try {
  for (let run = 0; run < RUNS; run++) {
    for (const sealed of [false, true]) {
      const dir = join(root, `run-${run}-${sealed ? 'sealed' : 'raw'}`);
      const store = open(dir, sealed);
      note(`append ${sealed ? 'sealed' : 'raw'}`, await appendAll(store, registration));
      note(`read ${sealed ? 'opened' : 'raw'}`, await readAllOf(store));
      await store.close();
    }
    const mixedDir = join(root, `run-${run}-mixed`);
    const mixed = open(mixedDir, true);
    await appendAll(mixed, (n) => (n % 10 === 0 ? registration(n) : walletEvent(n)));
    note('read mixed opened', await readAllOf(mixed));
    await mixed.close();
    const mixedRaw = open(mixedDir, false);
    note('read mixed raw', await readAllOf(mixedRaw));
    await mixedRaw.close();
  }
  console.log(`personal-data sealing, ${EVENTS.toLocaleString('en')} events, ${RUNS} runs (events per second)`);
  for (const [label, key] of [
    ['(a) append registrations, raw', 'append raw'],
    ['(a) append registrations, sealed', 'append sealed'],
    ['(b) read registrations, raw', 'read raw'],
    ['(b) read registrations, opened', 'read opened'],
    ['(c) read 10% registrations, raw', 'read mixed raw'],
    ['(c) read 10% registrations, opened', 'read mixed opened'],
  ] as const)
    console.log(line(label, results[key] ?? []));
  const ratio = (a: string, b: string) => median((results[a] ?? []).map((x, i) => x / ((results[b] ?? [])[i] ?? 1))).toFixed(2);
  console.log(
    `sealed/raw, median of per-run ratios: append ${ratio('append sealed', 'append raw')}, read ${ratio('read opened', 'read raw')}, mixed read ${ratio('read mixed opened', 'read mixed raw')}`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
