/** The purchase credit's dispatch rule. */
import { toPurchaseEvent, type PurchaseEvent } from '@quern/core/purchases';
import { typedRule } from '../job/dispatch-rule.js';
import { PURCHASE_CREDIT_JOB_NAME, PURCHASE_CREDIT_QUEUE, purchaseCreditJobId, purchaseCreditPayload } from './payload.js';

type PurchaseEventOf<T extends PurchaseEvent['type']> = Extract<PurchaseEvent, { type: T }>;

const creditRequest = ({ data }: PurchaseEventOf<'PurchaseCaptured'>) =>
  purchaseCreditPayload.parse({ orderId: data.orderId, capturedAt: data.capturedAt });

/**
 * A captured purchase's credit, after the grace the buyer's browser has to claim it. Done when
 * credited, or when money went back before the credit (which refuses the credit for good).
 */
export const purchaseCreditRule = typedRule<
  PurchaseEventOf<'PurchaseCaptured'>,
  PurchaseEventOf<'PurchaseCredited' | 'PurchaseRefunded' | 'PurchaseReversed'>
>({
  read: toPurchaseEvent,
  request: 'PurchaseCaptured',
  completions: ['PurchaseCredited', 'PurchaseRefunded', 'PurchaseReversed'],
  queue: PURCHASE_CREDIT_QUEUE,
  name: PURCHASE_CREDIT_JOB_NAME,
  jobId: (event) => purchaseCreditJobId(creditRequest(event).orderId),
  payload: (event) => creditRequest(event),
  matchCompletion: ({ data }) => purchaseCreditJobId(data.orderId),
});
