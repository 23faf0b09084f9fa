/**
 * Wallet schemas shared by the web forms, the tRPC procedures and the REST routes (the spec's
 * section 7 field names, unchanged). Messages are i18n keys ("errors:..."). Amounts leave the
 * server as decimal strings: a JSON number cannot hold every MLX amount exactly.
 */
import { z } from 'zod';
import { normalizeEmail, normalizeUsername, usernamePattern } from '../shared/person-keys.js';
import { parseAddress } from './address.js';
import { SEND_FEE_MLX, mlxToWire, parseMlxAmount } from './money.js';
import type { WalletState } from './state.js';
import { balanceOf, heldPurchasedMlx } from './state.js';

/** Longest recipient text read: an e-mail's maximum length. */
export const RECIPIENT_TEXT_LENGTH_MAX = 254;
const USERNAME_LENGTH_MAX = 32;
const USERNAME_LENGTH_MIN = 3;

export type Recipient = { kind: 'address'; address: string } | { kind: 'username'; username: string } | { kind: 'email'; email: string };

/**
 * Reads the send form's `to`: an e-mail (it has '@'), else a millix address, else a username.
 * Text longer than any username that is not a valid address is reported as an invalid address,
 * since that is what the person was trying to type. Usernames and e-mails are normalized as the
 * identity capability stores them; resolving them to a wallet is the handler's job.
 */
export function classifyRecipient(text: string): { ok: true; recipient: Recipient } | { ok: false; messageKey: string } {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { ok: false, messageKey: 'errors:allFieldsRequired' };
  if (trimmed.length > RECIPIENT_TEXT_LENGTH_MAX) return { ok: false, messageKey: 'errors:invalidRecipient' };
  if (trimmed.includes('@')) {
    const email = z.email().safeParse(trimmed);
    return email.success
      ? { ok: true, recipient: { kind: 'email', email: normalizeEmail(email.data) } }
      : { ok: false, messageKey: 'errors:invalidEmail' };
  }
  const address = parseAddress(trimmed);
  if (address.ok) return { ok: true, recipient: { kind: 'address', address: address.address } };
  if (trimmed.length > USERNAME_LENGTH_MAX) return { ok: false, messageKey: 'errors:invalidAddress' };
  if (trimmed.length >= USERNAME_LENGTH_MIN && usernamePattern.test(trimmed)) {
    return { ok: true, recipient: { kind: 'username', username: normalizeUsername(trimmed) } };
  }
  return { ok: false, messageKey: 'errors:invalidRecipient' };
}

/**
 * Amounts arrive as text only. A JSON number cannot be told apart from what the sender typed:
 * `1.000` parses to 1 (a Spanish "one thousand" would move one MLX) and `1e3` to 1000, so a
 * number is refused rather than guessed at. Query strings, forms and the web app send text.
 */
const amountText = (messageKey: string) => z.string({ error: messageKey });

/**
 * An MLX amount as a form or a query string sends it: digits, thousands separators allowed
 * (stripped here). Output: bigint.
 */
export const mlxAmountInput = amountText('errors:invalidAmount').transform((value, ctx) => readMlxAmount(value, ctx));

/** The amount an amount text names, or its refusal's message on the field. */
function readMlxAmount(value: string, ctx: z.RefinementCtx): bigint {
  const parsed = parseMlxAmount(value);
  if (parsed.ok) return parsed.amountMlx;
  ctx.addIssue({ code: 'custom', message: parsed.messageKey });
  return z.NEVER;
}

/** The send fee: the form shows it disabled at 1000; anything else is refused, never corrected. */
export const sendFeeInput = amountText('errors:invalidFee').transform((value, ctx) => {
  const parsed = parseMlxAmount(value);
  if (parsed.ok && parsed.amountMlx === SEND_FEE_MLX) return parsed.amountMlx;
  ctx.addIssue({ code: 'custom', message: 'errors:invalidFee' });
  return z.NEVER;
});

/** The spec's send: to (address, username or e-mail), amount, fee; nothing else (strict). */
export const sendInput = z.strictObject({
  to: z.string({ error: 'errors:allFieldsRequired' }).transform((value, ctx) => {
    const result = classifyRecipient(value);
    if (result.ok) return result.recipient;
    ctx.addIssue({ code: 'custom', message: result.messageKey });
    return z.NEVER;
  }),
  amount: mlxAmountInput,
  fee: sendFeeInput,
});
export type SendInput = z.input<typeof sendInput>;
export type SendCommandInput = z.output<typeof sendInput>;

/** The canonical wire form of an MLX amount (what mlxToWire writes). */
export const mlxWire = z.string().regex(/^(0|[1-9][0-9]{0,19})$/);

/** GET /api/millix/current-rate: USD per MLX as exact decimal text, null while no rate is set. */
export const rateOutput = z.object({ rate: z.string().nullable() });

/** GET /api/millix/address. */
export const addressOutput = z.object({ address: z.string() });

/**
 * The dashboard's Receive (issue 27): an optional amount to ask for, typed as in the send form. An
 * empty field asks for no amount; anything else must be a whole MLX amount the send form would take.
 */
export const receiveInput = z.strictObject({
  amount: amountText('errors:invalidAmount')
    .transform((value, ctx) => (value.trim() === '' ? undefined : readMlxAmount(value, ctx)))
    .optional(),
});
export type ReceiveInput = z.input<typeof receiveInput>;

/** The wallet's address, the payment URI a millix wallet reads (ADR 079), and its QR code as SVG markup. */
export const receiveOutput = z.object({ address: z.string(), payment_uri: z.string(), qr_svg: z.string() });
export type ReceiveOutput = z.infer<typeof receiveOutput>;

/**
 * GET /api/millix/balance/{address}: the spec's stable and unstable (millix's meaning: unstable =
 * deposits not yet confirmed), plus what the pending list adds up to in each direction (ADR 062:
 * the dashboard's Pending figure is pending_incoming − pending_outgoing). The two extra fields are
 * optional so that answers built from the log alone (toBalanceOutput) still fit.
 */
export const balanceOutput = z.object({
  stable: mlxWire,
  unstable: mlxWire,
  pending_incoming: mlxWire.optional(),
  pending_outgoing: mlxWire.optional(),
});
export type BalanceOutput = z.infer<typeof balanceOutput>;

/**
 * The dashboard's note on bought MLX not yet free to send or pay out (ADR 047): how much, and
 * when the last of it is free (ISO 8601); "0" and null when nothing is held.
 */
export const purchaseHoldOutput = z.object({ heldMlx: mlxWire, holdUntil: z.string().nullable() });
export type PurchaseHoldOutput = z.infer<typeof purchaseHoldOutput>;

export function toPurchaseHoldOutput(state: WalletState, now: Date): PurchaseHoldOutput {
  const { heldMlx, holdUntil } = heldPurchasedMlx(state, now);
  return { heldMlx: mlxToWire(heldMlx), holdUntil: holdUntil ?? null };
}

export function toBalanceOutput(state: WalletState): BalanceOutput {
  const balance = balanceOf(state);
  return { stable: mlxToWire(balance.stableMlx), unstable: mlxToWire(balance.unstableMlx) };
}

/** The send's answer: the transfer to follow (the first one, when the request was a retry). */
export const sendOutput = z.object({ transferId: z.string(), status: z.enum(['reserved', 'posted', 'voided']) });
export type SendOutput = z.infer<typeof sendOutput>;
