/** A merchant's payout through the merchant API in the history (ADR 033). */
import { z } from 'zod';
import { purposeId } from '../wallet/purpose.js';

export interface PayoutPurpose {
  kind: 'payout';
  payout_id: string;
}

export const payoutPurposeSchema = z.object({ kind: z.literal('payout'), payout_id: purposeId });
