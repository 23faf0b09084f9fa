/**
 * The send form's checks, made with the server's own schema (core's sendInput), so the form
 * refuses exactly what the server would and shows the same messages ("errors:..." keys).
 */
import { SEND_FEE_MLX, sendInput } from '@quern/core/wallet';
import { firstIssuePerField } from '../../ui/formErrors.js';

export const sendFields = ['to', 'amount', 'fee'] as const;
export type SendField = (typeof sendFields)[number];

/** What wallet.send receives: the amount as bare digits, the fee fixed. */
export interface SendRequest {
  to: string;
  amount: string;
  fee: string;
}

export const SEND_FEE_TEXT = SEND_FEE_MLX.toString(10);

export type SendValidation = { ok: true; request: SendRequest } | { ok: false; fields: Partial<Record<SendField, string>> };

export function validateSend(to: string, amountDigits: string): SendValidation {
  const request: SendRequest = { to: to.trim(), amount: amountDigits, fee: SEND_FEE_TEXT };
  const parsed = sendInput.safeParse(request);
  if (parsed.success) return { ok: true, request };
  return { ok: false, fields: firstIssuePerField(parsed.error.issues, sendFields) };
}
