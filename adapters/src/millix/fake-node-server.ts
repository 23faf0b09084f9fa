/**
 * A local stand-in for a millix node's HTTP API, for tests only: a node:http server on
 * 127.0.0.1 that answers the endpoints Quern uses as millix-node's handlers do (same routes,
 * same parameter names, same success and failure bodies, 401 on a wrong node identity), over an
 * in-memory ledger of transactions and outputs. Plain HTTP: the real node serves HTTPS with its
 * own certificate (api/server.js), which is transport, not protocol.
 *
 * Sources, in millix/millix-node: api/endpoint.js (routes, identity check), api/<id>/index.js
 * for each endpoint in node-protocol.ts, core/wallet/wallet.js (addTransaction: inputs from the
 * wallet's free outputs smallest first, change back to the wallet, `insufficient_balance`;
 * notifyExternalAPI: `GET <url>?p0=<transaction_id>&p1=transaction_new`).
 *
 * Test controls (fund, receive, stabilize, invalidate, failNext, notifyTo) are methods, never
 * routes, so nothing here can be mistaken for node behaviour.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { composeAddress, createAddress, parseAddress } from '@quern/core/wallet';
import { cHash288 } from './chash.js';
import { MAINNET_GENESIS_SHARD_ID, NODE_ENDPOINT, TRANSACTION_STATUS_INVALID } from './node-protocol.js';

const BODY_BYTES_MAX = 1024 * 1024;
const REQUEST_LOG_MAX = 1000;

interface FakeInput {
  input_position: number;
  output_transaction_id: string;
  output_position: number;
  address: string;
  address_key_identifier: string;
}

interface FakeOutput {
  output_position: number;
  address: string;
  address_key_identifier: string;
  amount: number;
  is_spent: number;
  is_double_spend: number;
}

interface FakeTransaction {
  transaction_id: string;
  shard_id: string;
  transaction_date: number;
  create_date: number;
  is_stable: number;
  stable_date: number | null;
  status: number;
  inputs: FakeInput[];
  outputs: FakeOutput[];
}

/** What the next request gets instead of (or before) its normal answer. */
export type FakeFailure =
  | { kind: 'answer'; status: number; body: unknown; endpointId?: string }
  /** Waits, then handles the request normally: the client may have given up by then. */
  | { kind: 'delay'; ms: number; endpointId?: string }
  | { kind: 'notJson'; endpointId?: string };

export interface FakeMillixNode {
  url: string;
  nodeId: string;
  nodeSignature: string;
  walletAddress: string;
  walletKeyIdentifier: string;
  /** An address of the node wallet (its key identifier) with its own base: where deposits go. */
  walletSubAddress(n: number): string;
  /** A stable output to the node wallet, as if it had been paid long ago. */
  fund(amountMlx: bigint): string;
  /** A transaction from outside paying `toAddress`; pending until stabilize. */
  receive(input: { toAddress: string; amountMlx: bigint; fromAddress: string; transactionDateSeconds?: number }): string;
  stabilize(transactionId: string): void;
  invalidate(transactionId: string): void;
  failNext(failure: FakeFailure): void;
  notifyTo(url: string | undefined): void;
  requests: Array<{ method: string; endpointId: string }>;
  close(): Promise<void>;
}

export interface FakeNodeOptions {
  nodeId?: string;
  nodeSignature?: string;
  now?: () => Date;
}

function keyBytes(seed: number): Uint8Array {
  const bytes = new Uint8Array(20);
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = (seed * 131 + index * 17 + 7) & 0xff;
  return bytes;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8' });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > BODY_BYTES_MAX) throw new Error('body too large');
  }
  return text;
}

export async function startFakeMillixNode(options: FakeNodeOptions = {}): Promise<FakeMillixNode> {
  const nodeId = options.nodeId ?? '1NodeFakeQuernTestXXXXXXXXXXXXXXX';
  const nodeSignature = options.nodeSignature ?? 'fake-node-signature';
  const now = options.now ?? (() => new Date());
  const walletKey = keyBytes(1);
  const walletAddress = createAddress(walletKey, 'mainnet');
  const walletKeyIdentifier = walletAddress.slice(walletAddress.indexOf('0a0') + 3);
  const proxyAddress = createAddress(keyBytes(2), 'mainnet');
  const transactions = new Map<string, FakeTransaction>();
  const failures: FakeFailure[] = [];
  const requests: FakeMillixNode['requests'] = [];
  let notifyUrl: string | undefined;
  let counter = 0;

  const seconds = (): number => Math.floor(now().getTime() / 1000);

  /**
   * Stores a transaction. Fee outputs come first with negative positions, as
   * wallet-utils.signTransaction numbers them (`idx - feeOutputList.length`).
   */
  function record(
    inputs: FakeInput[],
    outputs: Array<Pick<FakeOutput, 'address' | 'amount'>>,
    dateSeconds = seconds(),
    stable = false,
    feeOutputs: Array<Pick<FakeOutput, 'address' | 'amount'>> = [],
  ): FakeTransaction {
    counter += 1;
    const transaction: FakeTransaction = {
      transaction_id: cHash288(`fake-node:${counter}:${JSON.stringify(outputs)}`),
      shard_id: MAINNET_GENESIS_SHARD_ID,
      transaction_date: dateSeconds,
      create_date: seconds(),
      is_stable: stable ? 1 : 0,
      stable_date: stable ? seconds() : null,
      status: 1,
      inputs,
      outputs: [...feeOutputs, ...outputs].map((output, index) => {
        const parsed = parseAddress(output.address);
        if (!parsed.ok) throw new Error(`fake node: invalid output address ${output.address}`);
        const position = index - feeOutputs.length;
        return { ...output, output_position: position, address_key_identifier: parsed.keyIdentifier, is_spent: 0, is_double_spend: 0 };
      }),
    };
    transactions.set(transaction.transaction_id, transaction);
    return transaction;
  }

  /** As wallet.notifyTransactionChanged: only transactions with an output to the node wallet. */
  function notify(transaction: FakeTransaction): void {
    if (!notifyUrl || !transaction.outputs.some((output) => output.address_key_identifier === walletKeyIdentifier)) return;
    fetch(`${notifyUrl}?p0=${transaction.transaction_id}&p1=transaction_new`).catch(() => undefined);
  }

  const freeOutputs = () =>
    [...transactions.values()].flatMap((transaction) =>
      transaction.is_stable === 1 && transaction.status !== TRANSACTION_STATUS_INVALID
        ? transaction.outputs
            .filter((output) => output.address_key_identifier === walletKeyIdentifier && output.is_spent === 0)
            .map((output) => ({ transaction, output }))
        : [],
    );

  function sendFromWallet(payload: unknown): { status: number; body: unknown } {
    const partial = payload as { transaction_output_list?: unknown; transaction_output_fee?: unknown };
    if (
      !Array.isArray(partial?.transaction_output_list) ||
      typeof partial.transaction_output_fee !== 'object' ||
      partial.transaction_output_fee === null
    ) {
      return {
        status: 200,
        body: {
          api_status: 'fail',
          api_message: 'invalid transaction: must contain transaction_output_list(type array) and transaction_output_fee (type object) ',
        },
      };
    }
    const destinations = (partial.transaction_output_list as Array<Record<string, unknown>>).map((output) => ({
      address: `${String(output.address_base)}${String(output.address_version)}${String(output.address_key_identifier)}`,
      amount: Number(output.amount),
    }));
    const fee = Number((partial.transaction_output_fee as { amount?: unknown }).amount);
    if (
      destinations.some((output) => !parseAddress(output.address).ok || !Number.isSafeInteger(output.amount) || output.amount <= 0) ||
      !Number.isSafeInteger(fee)
    ) {
      return { status: 200, body: { api_status: 'fail', api_message: { error: 'transaction_invalid' } } };
    }
    const needed = destinations.reduce((sum, output) => sum + output.amount, 0) + fee;
    const candidates = freeOutputs().sort((a, b) => a.output.amount - b.output.amount);
    const used: typeof candidates = [];
    let total = 0;
    for (const candidate of candidates) {
      if (total >= needed) break;
      used.push(candidate);
      total += candidate.output.amount;
    }
    if (total < needed)
      return { status: 200, body: { api_status: 'fail', api_message: { error: 'insufficient_balance', data: { balance_stable: total } } } };
    for (const { output } of used) output.is_spent = 1;
    const inputs = used.map(({ transaction, output }, position) => ({
      input_position: position,
      output_transaction_id: transaction.transaction_id,
      output_position: output.output_position,
      address: output.address,
      address_key_identifier: output.address_key_identifier,
    }));
    const change = total - needed;
    const paid = change > 0 ? [...destinations, { address: walletAddress, amount: change }] : destinations;
    // The fee is an output of its own, to the proxy node that relays the transaction.
    const transaction = record(inputs, paid, seconds(), false, fee > 0 ? [{ address: proxyAddress, amount: fee }] : []);
    notify(transaction);
    return { status: 200, body: { api_status: 'success', transaction: [sentView(transaction, fee)] } };
  }

  /** A transaction as addTransaction resolves it (the payload the node signed). */
  function sentView(transaction: FakeTransaction, fee: number) {
    return {
      transaction_id: transaction.transaction_id,
      shard_id: transaction.shard_id,
      transaction_date: transaction.transaction_date,
      node_id_origin: nodeId,
      version: '0a0',
      transaction_input_list: transaction.inputs,
      transaction_output_list: transaction.outputs.map((output) => {
        const parsed = parseAddress(output.address);
        return {
          output_position: output.output_position,
          address_base: parsed.ok ? parsed.base : '',
          address_version: parsed.ok ? parsed.version : '',
          address_key_identifier: output.address_key_identifier,
          amount: output.amount,
        };
      }),
      transaction_output_fee: { fee_type: 'transaction_fee_default', amount: fee },
      transaction_parent_list: [],
      transaction_signature_list: [],
    };
  }

  /** get_transaction_extended's answer (api/IBHgAmydZbmTUAe8/index.js). */
  function extendedView(transaction: FakeTransaction) {
    return {
      transaction_id: transaction.transaction_id,
      shard_id: transaction.shard_id,
      transaction_date: transaction.transaction_date,
      node_id_origin: nodeId,
      node_id_proxy: null,
      version: '0a0',
      payload_hash: cHash288(`payload:${transaction.transaction_id}`),
      stable_date: transaction.stable_date,
      is_stable: transaction.is_stable,
      parent_date: null,
      is_parent: 0,
      timeout_date: null,
      is_timeout: 0,
      status: transaction.status,
      create_date: transaction.create_date,
      transaction_signature_list: [],
      transaction_input_list: transaction.inputs.map((input) => ({ ...input, status: 1, is_double_spend: 0, double_spend_date: null })),
      transaction_output_list: transaction.outputs.map((output) => ({
        output_position: output.output_position,
        address: output.address,
        address_key_identifier: output.address_key_identifier,
        amount: output.amount,
        stable_date: transaction.stable_date,
        is_stable: transaction.is_stable,
        spent_date: null,
        is_spent: output.is_spent,
        double_spend_date: null,
        is_double_spend: output.is_double_spend,
        status: 1,
        create_date: transaction.create_date,
      })),
      transaction_parent_list: [],
    };
  }

  function balanceOf(address: string) {
    let stable = 0;
    let unstable = 0;
    for (const transaction of transactions.values()) {
      if (transaction.status === TRANSACTION_STATUS_INVALID) continue;
      for (const output of transaction.outputs) {
        if (output.address !== address || output.is_spent === 1 || output.is_double_spend === 1) continue;
        if (transaction.is_stable === 1) stable += output.amount;
        else unstable += output.amount;
      }
    }
    return { stable, unstable };
  }

  /** list_transaction_output (api/FDLyQ5uo5t7jltiQ/index.js) with the filters Quern uses. */
  function listOutputs(query: URLSearchParams) {
    const dateBegin = Number(query.get('p1') || 0);
    const keyIdentifier = query.get('p3');
    const orderBy = query.get('p13') || 'create_date desc';
    const limit = Number.parseInt(query.get('p14') ?? '', 10) || 1000;
    const rows = [...transactions.values()].flatMap((transaction) =>
      transaction.outputs
        .filter(
          (output) =>
            (!dateBegin || transaction.transaction_date >= dateBegin) &&
            (!keyIdentifier || output.address_key_identifier === keyIdentifier),
        )
        .map((output) => ({
          transaction_id: transaction.transaction_id,
          shard_id: transaction.shard_id,
          output_position: output.output_position,
          address: output.address,
          address_key_identifier: output.address_key_identifier,
          amount: output.amount,
          stable_date: transaction.stable_date,
          is_stable: transaction.is_stable,
          spent_date: null,
          is_spent: output.is_spent,
          double_spend_date: null,
          is_double_spend: output.is_double_spend,
          status: 1,
          create_date: transaction.create_date,
          transaction_date: transaction.transaction_date,
          transaction_create_date: transaction.create_date,
          transaction_status: transaction.status,
        })),
    );
    const [column = 'create_date', direction = 'desc'] = orderBy.split(' ');
    const key = column === 'transaction_date' ? 'transaction_date' : 'create_date';
    rows.sort((a, b) => (direction === 'asc' ? a[key] - b[key] : b[key] - a[key]));
    return rows.slice(0, limit);
  }

  interface Answer {
    status: number;
    body: unknown;
  }
  const ok = (body: unknown): Answer => ({ status: 200, body });
  const missing = (message: string): Answer => ({ status: 400, body: { api_status: 'fail', api_message: message } });

  /** The node's answer to one authenticated request (a thrown error becomes Express's 500). */
  function answer(method: string, endpointId: string, query: URLSearchParams, body: string): Answer {
    const params = method === 'POST' && body ? (JSON.parse(body) as Record<string, unknown>) : undefined;
    const p = (name: string): unknown => (params ? params[name] : (query.get(name) ?? undefined));
    switch (endpointId) {
      case NODE_ENDPOINT.getSession:
        return ok({
          api_status: 'success',
          wallet: {
            id: 'fake-wallet',
            address: walletAddress,
            address_key_identifier: walletKeyIdentifier,
            address_public_key: 'fake-public-key',
          },
        });
      case NODE_ENDPOINT.sendTransactionFromWallet: {
        const p0 = p('p0');
        if (!p0) return missing('p0<transaction_output_payload> is required');
        return sendFromWallet(typeof p0 === 'string' ? JSON.parse(p0) : p0);
      }
      case NODE_ENDPOINT.getTransactionExtended: {
        const [id, shard] = [query.get('p0'), query.get('p1')];
        if (!id || !shard) return missing('p0<transaction_id> and p1<shard_id> are required');
        const transaction = transactions.get(id);
        if (!transaction)
          return ok({ api_status: 'fail:not_found', api_message: `the transaction with id ${id} was not found at shard ${shard}` });
        return ok(extendedView(transaction));
      }
      case NODE_ENDPOINT.getAddressBalance: {
        const address = query.get('p0');
        return address ? ok(balanceOf(address)) : missing('p0<address> is required');
      }
      case NODE_ENDPOINT.listTransactionOutput:
        return ok(listOutputs(query));
      default:
        return { status: 404, body: `<pre>Cannot ${method} ${endpointId}</pre>` };
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = /^\/api\/([^/]+)\/([^/]+)\/([A-Za-z0-9]+)$/.exec(url.pathname);
    if (!match) {
      send(res, 404, `<pre>Cannot ${req.method} ${url.pathname}</pre>`);
      return;
    }
    const [, requestNodeId, requestSignature, endpointId = ''] = match;
    if (requests.length < REQUEST_LOG_MAX) requests.push({ method: req.method ?? 'GET', endpointId });
    if (decodeURIComponent(requestNodeId ?? '') !== nodeId || decodeURIComponent(requestSignature ?? '') !== nodeSignature) {
      send(res, 401, { status: 'invalid_node_identity' });
      return;
    }
    const index = failures.findIndex((failure) => !failure.endpointId || failure.endpointId === endpointId);
    const failure = index >= 0 ? failures.splice(index, 1)[0] : undefined;
    if (failure?.kind === 'answer' || failure?.kind === 'notJson') {
      send(res, failure.kind === 'answer' ? failure.status : 200, failure.kind === 'answer' ? failure.body : '<html>proxy error</html>');
      return;
    }
    const delayMs = failure?.kind === 'delay' ? failure.ms : 0;
    // The body is read first, as Express's body parser does, so a handler that runs after the
    // client has given up still sees the request (and moves the money).
    readBody(req)
      .then((body) => new Promise<string>((resolve) => setTimeout(() => resolve(body), delayMs)))
      .then((body) => {
        const { status, body: answerBody } = answer(req.method ?? 'GET', endpointId, url.searchParams, body);
        send(res, status, answerBody);
      })
      // As Express does for a handler that throws: a 500 page.
      .catch(() => send(res, 500, '<pre>Internal Server Error</pre>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    nodeId,
    nodeSignature,
    walletAddress,
    walletKeyIdentifier,
    walletSubAddress: (n) => composeAddress(keyBytes(100 + n), walletKey, 'mainnet'),
    fund: (amountMlx) => record([], [{ address: walletAddress, amount: Number(amountMlx) }], seconds(), true).transaction_id,
    receive: ({ toAddress, amountMlx, fromAddress, transactionDateSeconds }) => {
      const from = parseAddress(fromAddress);
      const input = {
        input_position: 0,
        output_transaction_id: cHash288(`outside:${counter}`),
        output_position: 0,
        address: fromAddress,
        address_key_identifier: from.ok ? from.keyIdentifier : '',
      };
      const transaction = record([input], [{ address: toAddress, amount: Number(amountMlx) }], transactionDateSeconds ?? seconds());
      notify(transaction);
      return transaction.transaction_id;
    },
    stabilize: (transactionId) => {
      const transaction = transactions.get(transactionId);
      if (!transaction) throw new Error(`fake node: no transaction ${transactionId}`);
      transaction.is_stable = 1;
      transaction.stable_date = seconds();
    },
    invalidate: (transactionId) => {
      const transaction = transactions.get(transactionId);
      if (!transaction) throw new Error(`fake node: no transaction ${transactionId}`);
      transaction.status = TRANSACTION_STATUS_INVALID;
    },
    failNext: (failure) => void failures.push(failure),
    notifyTo: (url) => {
      notifyUrl = url;
    },
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
