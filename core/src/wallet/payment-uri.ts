/**
 * The payment request a millix wallet reads from a link or a QR code (ADR 079):
 *
 *     millix:<address>[?amount=<whole MLX>][&label=<payee>][&message=<what for>]
 *
 * BIP 21's form with millix's scheme, and the amount in whole MLX (millix amounts are integers,
 * so there is no decimal point to agree on). Values are percent-encoded (a space is %20, never
 * '+'). A reader ignores a parameter it does not know unless its name starts with `req-`, which
 * it must refuse, as BIP 21 says.
 */
import { parseAddress } from './address.js';
import { MLX_TOTAL_SUPPLY, mlxToWire } from './money.js';

export const PAYMENT_URI_SCHEME = 'millix';
/** Longest label or message written or read: a QR code must stay scannable. */
export const PAYMENT_URI_TEXT_LENGTH_MAX = 200;

export interface PaymentRequest {
  address: string;
  amountMlx?: bigint;
  /** Who is paid (a merchant's name). */
  label?: string;
  /** What the payment is for. */
  message?: string;
}

/** The URI of a request; its address is written as given (callers pass one of their own wallets' addresses). */
export function toPaymentUri(request: PaymentRequest): string {
  const parameters: string[] = [];
  if (request.amountMlx !== undefined) parameters.push(`amount=${mlxToWire(request.amountMlx)}`);
  if (request.label !== undefined) parameters.push(`label=${encodeURIComponent(request.label)}`);
  if (request.message !== undefined) parameters.push(`message=${encodeURIComponent(request.message)}`);
  return `${PAYMENT_URI_SCHEME}:${request.address}${parameters.length > 0 ? `?${parameters.join('&')}` : ''}`;
}

export type PaymentUriParseResult = { ok: true; request: PaymentRequest } | { ok: false };

const WHOLE_MLX = /^[1-9][0-9]{0,18}$/;

/** Reads a URI a wallet scanned or was given; anything malformed, or a `req-` parameter it cannot honour, is refused. */
export function parsePaymentUri(text: string): PaymentUriParseResult {
  const refused = { ok: false } as const;
  if (typeof text !== 'string' || text.length > 1000) return refused;
  const colon = text.indexOf(':');
  if (colon < 0 || text.slice(0, colon).toLowerCase() !== PAYMENT_URI_SCHEME) return refused;
  const rest = text.slice(colon + 1);
  const query = rest.indexOf('?');
  const address = query < 0 ? rest : rest.slice(0, query);
  if (!parseAddress(address).ok) return refused;
  const request: PaymentRequest = { address };
  const seen = new Set<string>();
  for (const pair of query < 0 ? [] : rest.slice(query + 1).split('&')) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    let value: string;
    try {
      value = decodeURIComponent(equals < 0 ? '' : pair.slice(equals + 1));
    } catch {
      return refused;
    }
    if (seen.has(name)) return refused;
    seen.add(name);
    if (name === 'amount') {
      if (!WHOLE_MLX.test(value) || BigInt(value) > MLX_TOTAL_SUPPLY) return refused;
      request.amountMlx = BigInt(value);
    } else if (name === 'label' || name === 'message') {
      if (value.length > PAYMENT_URI_TEXT_LENGTH_MAX) return refused;
      request[name] = value;
    } else if (name.startsWith('req-')) return refused;
  }
  return { ok: true, request };
}
