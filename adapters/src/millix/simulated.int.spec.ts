// Proves the simulated millix network keeps the port's promises on a real SQLite file: idempotent
// sends, address checks, pending-to-stable on the clock, a pageable incoming feed, and that a
// second handle on the same file (as the faucet process opens it) sees and adds the same data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SEND_FEE_MLX } from '@quern/core/wallet';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testAddress } from '@quern/core/wallet/testing';
import { isMillixTransactionId } from './chash.js';
import { isMillixNetworkError, type MillixNetworkErrorCode, type MillixSendRequest } from './port.js';
import { openSimulatedNetwork, simulatedFaucetAddress, type SimulatedNetwork, type SimulatedNetworkOptions } from './simulated.js';

const root = mkdtempSync(join(tmpdir(), 'quern-simulated-network-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let fileCounter = 0;
const newFile = () => {
  fileCounter += 1;
  return join(root, `net-${fileCounter}`, 'simulated-network.sqlite');
};

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-03-01T10:00:00.000Z')) {
  let nowMs = start;
  return { now: () => new Date(nowMs), advance: (ms: number) => (nowMs += ms) };
}

async function errorCode(promise: Promise<unknown>): Promise<MillixNetworkErrorCode> {
  try {
    await promise;
  } catch (error) {
    if (isMillixNetworkError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a MillixNetworkError');
}

describe('simulated millix network', () => {
  const opened: SimulatedNetwork[] = [];
  const open = (options: Partial<SimulatedNetworkOptions> = {}) => {
    const network = openSimulatedNetwork({ file: options.file ?? newFile(), confirmDelayMs: 2_000, ...options });
    opened.push(network);
    return network;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((network) => network.close()));
  });

  const request = (overrides: Partial<MillixSendRequest> = {}): MillixSendRequest => ({
    transferId: 'transfer-1',
    fromAddress: testAddress(1),
    toAddress: testAddress(2),
    amountMlx: 50_000n,
    feeMlx: SEND_FEE_MLX,
    ...overrides,
  });

  it('opens its file in WAL mode, so another process can read and write it meanwhile', async () => {
    const file = newFile();
    open({ file });
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });

  it('sends once per transfer id: a retry returns the same millix-format hash and records nothing new', async () => {
    const network = open();
    const first = await network.send(request());
    const retry = await network.send(request());
    expect(retry.transactionHash).toBe(first.transactionHash);
    expect(isMillixTransactionId(first.transactionHash)).toBe(true);
    const other = await network.send(request({ transferId: 'transfer-2' }));
    expect(other.transactionHash).not.toBe(first.transactionHash);
    const page = await network.incomingSince(undefined, 10);
    expect(page.transactions.map((t) => t.transactionHash)).toEqual([first.transactionHash, other.transactionHash]);
  });

  it('refuses a transfer id reused with different details instead of returning the first result', async () => {
    const network = open();
    await network.send(request());
    expect(await errorCode(network.send(request({ amountMlx: 50_001n })))).toBe('rejected');
    expect(await errorCode(network.send(request({ toAddress: testAddress(3) })))).toBe('rejected');
  });

  it('refuses invalid addresses with invalidAddress everywhere an address is taken', async () => {
    const network = open();
    expect(await errorCode(network.send(request({ toAddress: 'nope' })))).toBe('invalidAddress');
    expect(await errorCode(network.send(request({ fromAddress: `${testAddress(1)}x` })))).toBe('invalidAddress');
    expect(await errorCode(network.balance('16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM'))).toBe('invalidAddress');
    expect(await errorCode(network.deposit('', 10n))).toBe('invalidAddress');
    expect((await network.incomingSince(undefined, 10)).transactions).toEqual([]);
  });

  it('refuses amounts that are not positive integers within the supply', async () => {
    const network = open();
    expect(await errorCode(network.send(request({ amountMlx: 0n })))).toBe('rejected');
    expect(await errorCode(network.send(request({ feeMlx: 999n })))).toBe('rejected');
    expect(await errorCode(network.deposit(testAddress(2), -5n))).toBe('rejected');
    expect(await errorCode(network.deposit(testAddress(2), 9_000_000_000_000_001n))).toBe('rejected');
  });

  it('keeps a transaction pending until the confirmation delay has passed, then stable', async () => {
    const clock = manualClock();
    const network = open({ now: clock.now, confirmDelayMs: 2_000 });
    const address = testAddress(7);
    const { transactionHash } = await network.deposit(address, 1_000_000n);
    expect(await network.transactionStatus(transactionHash)).toBe('pending');
    expect(await network.balance(address)).toEqual({ stableMlx: 0n, unstableMlx: 1_000_000n });
    clock.advance(1_999);
    expect(await network.transactionStatus(transactionHash)).toBe('pending');
    clock.advance(1);
    expect(await network.transactionStatus(transactionHash)).toBe('stable');
    expect(await network.balance(address)).toEqual({ stableMlx: 1_000_000n, unstableMlx: 0n });
  });

  it('reports unknown hashes as unknown and invalidated ones as rejected, out of the balance', async () => {
    const network = open({ confirmDelayMs: 0 });
    const address = testAddress(8);
    const { transactionHash } = await network.deposit(address, 500n);
    expect(await network.transactionStatus('2VngVznbdiQ5tqfWqn2NMP8DijqCbLX79Gygo9yYRVFU6iN35h')).toBe('unknown');
    expect(await network.transactionStatus('x'.repeat(500))).toBe('unknown');
    expect(await network.invalidate(transactionHash)).toBe(true);
    expect(await network.invalidate(transactionHash)).toBe(false);
    expect(await network.transactionStatus(transactionHash)).toBe('rejected');
    expect(await network.balance(address)).toEqual({ stableMlx: 0n, unstableMlx: 0n });
  });

  it('pages the incoming feed by cursor, oldest first, and returns the same cursor when nothing is new', async () => {
    const clock = manualClock();
    const network = open({ now: clock.now });
    const hashes: string[] = [];
    for (let n = 1; n <= 5; n += 1) {
      hashes.push((await network.deposit(testAddress(20 + n), BigInt(n * 1000))).transactionHash);
      clock.advance(10);
    }
    const first = await network.incomingSince(undefined, 2);
    const second = await network.incomingSince(first.cursor, 2);
    const third = await network.incomingSince(second.cursor, 2);
    const empty = await network.incomingSince(third.cursor, 2);
    expect([first, second, third].flatMap((page) => page.transactions.map((t) => t.transactionHash))).toEqual(hashes);
    expect(third.transactions).toHaveLength(1);
    expect(empty).toEqual({ transactions: [], cursor: third.cursor });
    expect(first.transactions[0]).toEqual({
      transactionHash: hashes[0],
      outputPosition: 0,
      toAddress: testAddress(21),
      fromAddress: simulatedFaucetAddress('mainnet'),
      amountMlx: 1000n,
      observedAt: '2026-03-01T10:00:00.000Z',
    });
  });

  it('refuses a malformed cursor or an unbounded page as caller bugs', async () => {
    const network = open();
    await expect(network.incomingSince('abc', 10)).rejects.toThrow(RangeError);
    await expect(network.incomingSince('-1', 10)).rejects.toThrow(RangeError);
    await expect(network.incomingSince(undefined, 0)).rejects.toThrow(RangeError);
    await expect(network.incomingSince(undefined, 1001)).rejects.toThrow(RangeError);
  });

  it('deposits from a faucet address on the recipient’s network', async () => {
    const network = open();
    await network.deposit(testAddress(30, 'testnet'), 10n);
    const [incoming] = (await network.incomingSince(undefined, 1)).transactions;
    expect(incoming?.fromAddress).toBe(simulatedFaucetAddress('testnet'));
    expect(simulatedFaucetAddress('testnet')).not.toBe(simulatedFaucetAddress('mainnet'));
  });

  it('shares one file between handles: deposits, statuses and sends made by one are seen by the other', async () => {
    const file = newFile();
    const clock = manualClock();
    const quern = open({ file, now: clock.now, confirmDelayMs: 0 });
    const faucet = open({ file, now: clock.now, confirmDelayMs: 5_000 });
    const address = testAddress(40);
    const { transactionHash } = await faucet.deposit(address, 777n);
    const page = await quern.incomingSince(undefined, 10);
    expect(page.transactions.map((t) => t.transactionHash)).toEqual([transactionHash]);
    // The creator's delay decides, not the reader's.
    expect(await quern.transactionStatus(transactionHash)).toBe('pending');
    clock.advance(5_000);
    expect(await quern.transactionStatus(transactionHash)).toBe('stable');
    const [a, b] = await Promise.all([quern.send(request()), faucet.send(request())]);
    expect(a.transactionHash).toBe(b.transactionHash);
    expect((await quern.incomingSince(page.cursor, 10)).transactions).toHaveLength(1);
  });

  it('refuses an out-of-range confirmation delay and answers unavailable once closed', async () => {
    expect(() => openSimulatedNetwork({ file: newFile(), confirmDelayMs: -1 })).toThrow(RangeError);
    expect(() => openSimulatedNetwork({ file: newFile(), confirmDelayMs: 1.5 })).toThrow(RangeError);
    const network = openSimulatedNetwork({ file: newFile() });
    await network.close();
    await network.close();
    expect(await errorCode(network.balance(testAddress(1)))).toBe('unavailable');
  });
});
