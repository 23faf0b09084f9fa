/**
 * One HTTP call to a millix node, bounded in time and size, never retried here: the settlement
 * worker and the deposit watcher own retries (and their limits), so a retry here would multiply
 * theirs. Failures become MillixNetworkError with the port's codes:
 * - no answer (refused, reset, DNS), a timeout, HTTP 5xx, 401/403 (the node did not accept
 *   Quern's node identity: an operator must fix it), 429, or an answer that is not JSON:
 *   `unavailable`;
 * - any other HTTP 4xx (the node refused the request itself): `rejected`.
 * A body `{ "api_status": "fail..." }` with HTTP 200 is returned to the caller, which knows
 * whether "fail" means rejected (a send) or not found (a lookup).
 */
import { MillixNetworkError, type MillixNetworkErrorCode } from './port.js';

export const NODE_TIMEOUT_MS_DEFAULT = 10_000;
export const NODE_TIMEOUT_MS_MAX = 120_000;
/** Largest answer read; list_transaction_output pages are the biggest (a few hundred KiB). */
export const NODE_RESPONSE_BYTES_MAX = 4 * 1024 * 1024;

/**
 * Whether the node's handler can have acted on the request. `false` when the node answered
 * without running it (400, 401); `unknown` when the answer was lost (timeout, reset, 5xx). A
 * send whose outcome is unknown must not simply be sent again (node-http.ts resolves it).
 */
export type HandlerOutcome = 'notRun' | 'unknown';

export class NodeCallError extends MillixNetworkError {
  constructor(
    code: MillixNetworkErrorCode,
    message: string,
    readonly handler: HandlerOutcome,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export interface NodeClientOptions {
  baseUrl: string;
  nodeId: string;
  nodeSignature: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export type NodeParams = Record<`p${number}`, string | number | object | undefined>;

export interface NodeClient {
  get(endpointId: string, params: NodeParams): Promise<unknown>;
  post(endpointId: string, params: NodeParams): Promise<unknown>;
}

async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > NODE_RESPONSE_BYTES_MAX) throw new Error(`answer of ${declared} bytes is over ${NODE_RESPONSE_BYTES_MAX}`);
  if (!response.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    if (bytes > NODE_RESPONSE_BYTES_MAX) throw new Error(`answer is over ${NODE_RESPONSE_BYTES_MAX} bytes`);
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

const queryValue = (value: string | number | object): string => (typeof value === 'object' ? JSON.stringify(value) : String(value));

function classifyStatus(status: number): { code: MillixNetworkErrorCode; handler: HandlerOutcome } {
  if (status === 401 || status === 403 || status === 429) return { code: 'unavailable', handler: 'notRun' };
  if (status >= 500) return { code: 'unavailable', handler: 'unknown' };
  return { code: 'rejected', handler: 'notRun' };
}

export function createNodeClient(options: NodeClientOptions): NodeClient {
  const timeoutMs = options.timeoutMs ?? NODE_TIMEOUT_MS_DEFAULT;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > NODE_TIMEOUT_MS_MAX) {
    throw new RangeError(`timeoutMs must be an integer in 1..${NODE_TIMEOUT_MS_MAX}`);
  }
  const doFetch = options.fetch ?? fetch;
  const base = `${options.baseUrl.replace(/\/+$/, '')}/api/${encodeURIComponent(options.nodeId)}/${encodeURIComponent(options.nodeSignature)}/`;

  async function call(endpointId: string, init: RequestInit, query: string): Promise<unknown> {
    const url = `${base}${endpointId}${query}`;
    // The signature is a credential: errors name the endpoint, never the URL.
    const label = `millix node ${endpointId}`;
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, { ...init, signal, redirect: 'error' });
      text = await readBounded(response);
    } catch (error) {
      const timedOut = signal.aborted;
      const reason = timedOut
        ? `no answer within ${timeoutMs} ms`
        : `unreachable (${error instanceof Error ? error.message : String(error)})`;
      throw new NodeCallError('unavailable', `${label}: ${reason}`, 'unknown', { cause: error });
    }
    if (!response.ok) {
      const { code, handler } = classifyStatus(response.status);
      throw new NodeCallError(code, `${label}: HTTP ${response.status} ${text.slice(0, 200)}`, handler);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new NodeCallError('unavailable', `${label}: the answer is not JSON`, 'unknown', { cause: error });
    }
  }

  return {
    get(endpointId, params) {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, queryValue(value));
      const encoded = search.toString();
      const query = encoded.length > 0 ? `?${encoded}` : '';
      return call(endpointId, { method: 'GET', headers: { accept: 'application/json' } }, query);
    },
    post(endpointId, params) {
      const body = JSON.stringify(Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined)));
      return call(endpointId, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body }, '');
    },
  };
}
