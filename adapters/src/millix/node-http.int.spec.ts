// Proves the millix node adapter against a local server that answers as a millix node does:
// sends pay from the node wallet once per transfer (also after a lost answer), statuses and
// balances follow the node, failures map to the port's error codes, and incoming outputs are
// paged and can be fetched from the node's notification.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEND_FEE_MLX } from '@quern/core/wallet';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testAddress } from '@quern/core/wallet/testing';
import { isMillixTransactionId } from './chash.js';
import { type FakeMillixNode, startFakeMillixNode } from './fake-node-server.js';
import { IN_DOUBT_GRACE_MS, type MillixNodeNetwork, type MillixNodeOptions, openMillixNodeNetwork } from './node-http.js';
import { NODE_ENDPOINT, parseNodeNotification } from './node-protocol.js';
import { isMillixNetworkError, type MillixNetworkErrorCode, type MillixSendRequest } from './port.js';

const root = mkdtempSync(join(tmpdir(), 'quern-millix-node-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let fileCounter = 0;
const newJournal = () => {
  fileCounter += 1;
  return join(root, `journal-${fileCounter}`, 'millix-node-sends.sqlite');
};

async function errorCode(promise: Promise<unknown>): Promise<MillixNetworkErrorCode> {
  try {
    await promise;
  } catch (error) {
    if (isMillixNetworkError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a MillixNetworkError');
}

describe('millix node adapter', () => {
  let node: FakeMillixNode;
  let clockMs: number;
  const adapters: MillixNodeNetwork[] = [];
  const now = () => new Date(clockMs);
  const open = (overrides: Partial<MillixNodeOptions> = {}) => {
    const adapter = openMillixNodeNetwork({
      baseUrl: node.url,
      nodeId: node.nodeId,
      nodeSignature: node.nodeSignature,
      journalFile: newJournal(),
      timeoutMs: 1_000,
      now,
      ...overrides,
    });
    adapters.push(adapter);
    return adapter;
  };
  const sends = () => node.requests.filter((request) => request.endpointId === NODE_ENDPOINT.sendTransactionFromWallet).length;
  const request = (overrides: Partial<MillixSendRequest> = {}): MillixSendRequest => ({
    transferId: 'transfer-1',
    fromAddress: testAddress(1),
    toAddress: testAddress(2),
    amountMlx: 40_000n,
    feeMlx: SEND_FEE_MLX,
    ...overrides,
  });

  beforeEach(async () => {
    clockMs = Date.parse('2026-04-01T12:00:00.000Z');
    node = await startFakeMillixNode({ now });
    node.fund(1_000_000n);
  });
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((adapter) => adapter.close()));
    await node.close();
  });

  it('sends from the node wallet: the payee sees the amount pending, then stable', async () => {
    const network = open();
    const { transactionHash } = await network.send(request());
    expect(isMillixTransactionId(transactionHash)).toBe(true);
    expect(await network.transactionStatus(transactionHash)).toBe('pending');
    expect(await network.balance(testAddress(2))).toEqual({ stableMlx: 0n, unstableMlx: 40_000n });
    // Change (1,000,000 - 40,000 - 1,000 fee) goes back to the wallet, unstable until the transaction is.
    expect(await network.balance(node.walletAddress)).toEqual({ stableMlx: 0n, unstableMlx: 959_000n });
    node.stabilize(transactionHash);
    expect(await network.transactionStatus(transactionHash)).toBe('stable');
    expect(await network.balance(testAddress(2))).toEqual({ stableMlx: 40_000n, unstableMlx: 0n });
  });

  it('sends once per transfer id, also for a new adapter on the same journal after a restart', async () => {
    const journalFile = newJournal();
    const first = await open({ journalFile }).send(request());
    const again = await open({ journalFile }).send(request());
    expect(again.transactionHash).toBe(first.transactionHash);
    expect(sends()).toBe(1);
    // The wallet's change is spendable once the first transaction is stable, as on millix.
    node.stabilize(first.transactionHash);
    const other = await open({ journalFile }).send(request({ transferId: 'transfer-2' }));
    expect(other.transactionHash).not.toBe(first.transactionHash);
    expect(sends()).toBe(2);
  });

  it('refuses a transfer id reused with different details', async () => {
    const network = open();
    await network.send(request());
    expect(await errorCode(network.send(request({ amountMlx: 1n + 40_000n })))).toBe('rejected');
    expect(sends()).toBe(1);
  });

  it('refuses invalid addresses before asking the node', async () => {
    const network = open();
    expect(await errorCode(network.send(request({ toAddress: 'not-an-address' })))).toBe('invalidAddress');
    expect(await errorCode(network.balance('1111'))).toBe('invalidAddress');
    expect(await network.transactionStatus('not-a-transaction-id')).toBe('unknown');
    expect(node.requests).toEqual([]);
  });

  it('maps the node refusing the transaction (api_status fail) to rejected and forgets the attempt', async () => {
    const network = open();
    expect(await errorCode(network.send(request({ amountMlx: 5_000_000n })))).toBe('rejected');
    node.fund(10_000_000n);
    const retried = await network.send(request({ amountMlx: 5_000_000n }));
    expect(isMillixTransactionId(retried.transactionHash)).toBe(true);
    expect(sends()).toBe(2);
  });

  it('maps HTTP 500, a wrong node identity, a non-JSON answer and an unreachable node to unavailable', async () => {
    const network = open();
    node.failNext({ kind: 'answer', status: 500, body: '<pre>Internal Server Error</pre>' });
    expect(await errorCode(network.balance(testAddress(2)))).toBe('unavailable');
    node.failNext({ kind: 'notJson' });
    expect(await errorCode(network.balance(testAddress(2)))).toBe('unavailable');
    expect(await errorCode(open({ nodeSignature: 'forged' }).balance(testAddress(2)))).toBe('unavailable');
    const unreachable = open({ baseUrl: 'http://127.0.0.1:1' });
    expect(await errorCode(unreachable.balance(testAddress(2)))).toBe('unavailable');
  });

  it('maps a node answering 400 to rejected', async () => {
    const network = open();
    node.failNext({ kind: 'answer', status: 400, body: { api_status: 'fail', api_message: 'p0<transaction_output_payload> is required' } });
    expect(await errorCode(network.send(request()))).toBe('rejected');
    // Nothing moved, so the same transfer can be sent, and is paid once.
    await network.send(request());
    expect(await network.balance(testAddress(2))).toEqual({ stableMlx: 0n, unstableMlx: 40_000n });
  });

  it('times out a slow node as unavailable, and a retry finds the transaction instead of sending again', async () => {
    const network = open({ timeoutMs: 200 });
    node.failNext({ kind: 'delay', ms: 400, endpointId: NODE_ENDPOINT.sendTransactionFromWallet });
    const started = Date.now();
    expect(await errorCode(network.send(request()))).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const retried = await network.send(request());
    expect(await network.transactionStatus(retried.transactionHash)).toBe('pending');
    expect(sends()).toBe(1);
    expect(await network.balance(testAddress(2))).toEqual({ stableMlx: 0n, unstableMlx: 40_000n });
  });

  it('keeps an attempt in doubt after HTTP 500 and sends again only after the grace period shows no trace', async () => {
    const network = open();
    node.failNext({ kind: 'answer', status: 500, body: '<pre>Internal Server Error</pre>' });
    expect(await errorCode(network.send(request()))).toBe('unavailable');
    expect(await errorCode(network.send(request()))).toBe('unavailable');
    expect(sends()).toBe(1);
    clockMs += IN_DOUBT_GRACE_MS;
    const { transactionHash } = await network.send(request());
    expect(sends()).toBe(2);
    expect((await network.send(request())).transactionHash).toBe(transactionHash);
    expect(await network.balance(testAddress(2))).toEqual({ stableMlx: 0n, unstableMlx: 40_000n });
  });

  it('reports rejected for an invalidated transaction and unknown for one the node never saw', async () => {
    const network = open();
    const { transactionHash } = await network.send(request());
    node.invalidate(transactionHash);
    expect(await network.transactionStatus(transactionHash)).toBe('rejected');
    expect(await network.transactionStatus('2VngVznbdiQ5tqfWqn2NMP8DijqCbLX79Gygo9yYRVFU6iN35h')).toBe('unknown');
  });

  it('pages incoming outputs to the node wallet, oldest first, with their payer, and finds late arrivals', async () => {
    const network = open();
    const payer = testAddress(9);
    const at = Math.floor(clockMs / 1000);
    const ids = [1, 2, 3].map((n) =>
      node.receive({ toAddress: node.walletSubAddress(n), amountMlx: BigInt(n * 100), fromAddress: payer, transactionDateSeconds: at + n }),
    );
    node.receive({ toAddress: testAddress(50), amountMlx: 5n, fromAddress: payer });
    const first = await network.incomingSince(undefined, 2);
    const second = await network.incomingSince(first.cursor, 2);
    const funded = first.transactions.filter((t) => t.amountMlx === 1_000_000n);
    const deposits = [...first.transactions, ...second.transactions].filter((t) => t.amountMlx !== 1_000_000n);
    expect(funded).toHaveLength(1);
    expect(deposits.map((t) => t.transactionHash)).toEqual(ids);
    expect(deposits[0]).toEqual({
      transactionHash: ids[0],
      outputPosition: 0,
      toAddress: node.walletSubAddress(1),
      fromAddress: payer,
      amountMlx: 100n,
      observedAt: new Date((at + 1) * 1000).toISOString(),
    });
    const empty = await network.incomingSince(second.cursor, 2);
    expect(empty.transactions).toEqual([]);
    // Signed elsewhere a minute before the newest one seen, reaching this node only now.
    const late = node.receive({
      toAddress: node.walletSubAddress(4),
      amountMlx: 400n,
      fromAddress: payer,
      transactionDateSeconds: at - 60,
    });
    const afterLate = await network.incomingSince(empty.cursor, 2);
    expect(afterLate.transactions.map((t) => t.transactionHash)).toEqual([late]);
    await expect(network.incomingSince('not a cursor', 2)).rejects.toThrow(RangeError);
  });

  it('turns the node’s notification into the transaction’s outputs, read from the node', async () => {
    const network = open();
    const received: URLSearchParams[] = [];
    const webhook: Server = createServer((req, res) => {
      received.push(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
      res.end('ok');
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    try {
      node.notifyTo(`http://127.0.0.1:${(webhook.address() as AddressInfo).port}/api/quern/millix/notifications`);
      const id = node.receive({ toAddress: node.walletSubAddress(7), amountMlx: 700n, fromAddress: testAddress(9) });
      await expect.poll(() => received.length).toBe(1);
      const notification = parseNodeNotification(received[0]);
      if (notification instanceof Error) throw notification;
      expect(notification).toEqual({ transactionId: id, status: 'transaction_new' });
      const outputs = await network.incomingFromNotification(notification);
      expect(outputs.map((t) => [t.toAddress, t.amountMlx])).toEqual([[node.walletSubAddress(7), 700n]]);
    } finally {
      await new Promise((resolve) => webhook.close(resolve));
    }
  });

  it('answers unavailable once closed', async () => {
    const network = open();
    await network.close();
    expect(await errorCode(network.balance(testAddress(2)))).toBe('unavailable');
  });
});
