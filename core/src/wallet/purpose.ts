/**
 * The shape of what a history row says a transfer was for, when it was not a plain send: the wire
 * form (snake_case, as the spec's other transaction fields) of a transfer's `reference`. Each
 * capability that moves MLX defines its own purposes in its `purpose.ts` with the pieces here; the
 * history (core/src/history) lists them all.
 */
import { z } from 'zod';
import { TRANSFER_REFERENCE_ID_PATTERN } from './transfer-reference.js';

/** What every purpose has: the kind the history names the row by. */
export interface PurposeShape {
  kind: string;
}

/** The ids a purpose names, as bounded as the reference's (ADR 025). */
export const purposeId = z.string().regex(TRANSFER_REFERENCE_ID_PATTERN);
/** A shop's order reference as checkout takes it (CHECKOUT_REFERENCE_PATTERN, core/src/checkout). */
export const purposeMerchantReference = z.string().regex(/^[A-Za-z0-9._:/#-]{1,64}$/);
/** A checkout cart's first item's name, as the shop sent it (checkout contracts: 1 to 200 characters). */
export const purposeFirstItem = z.string().min(1).max(200);
