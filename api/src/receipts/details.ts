/**
 * A receipt from its history row and the log (ADR 091). The row says who paid whom, how much and
 * for what; the log adds what the row does not hold: a purchase's PayPal price and rate, a
 * checkout's own rate, an invoice's reference (and its own rate when it was priced in USD), a
 * subscription's plan name. A rate the payment did not record is the one in force when the
 * transaction was recorded (the exchange-rate stream up to the row's log position).
 */
import type { EventStore } from '@quern/core';
import { checkoutStream, parseCheckoutOrderId, toCheckoutEvent } from '@quern/core/checkout';
import type { CompletedTransaction } from '@quern/core/history';
import { invoiceStream, toInvoiceEvent } from '@quern/core/invoices';
import { usdValueOf } from '@quern/core/payments';
import { loadPurchase } from '@quern/core/purchases';
import { type Receipt, type ReceiptKind, rateInForceAt } from '@quern/core/receipts';
import { subscriptionStream, toSubscriptionEvent } from '@quern/core/subscriptions';
import type { HistoryEntry } from '@quern/projections';

type Store = EventStore;
/** A row's purpose as the history answers it, with the shop's reference and first item joined in. */
type RowPurpose = NonNullable<CompletedTransaction['purpose']>;

/** What differs by kind: how the merchant names the payment, and its own rate when it recorded one. */
interface KindDetails {
  merchant?: string;
  reference: string;
  orderId: string;
  usdPerMlx?: string;
  usdPaidCents?: bigint;
  providerTransactionId?: string;
  period?: number;
}

const dollars = (cents: bigint): string => `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;

/** An order's CheckoutPaid, from the stream of its intent (a checkout stream holds a few payments at most). */
async function checkoutPaidOf(store: Store, orderId: string) {
  const intent = parseCheckoutOrderId(orderId);
  if (!intent) return undefined;
  for (const record of await store.readStream(checkoutStream(intent.intentId), { maxCount: 1_000 })) {
    const event = toCheckoutEvent(record);
    if (event?.type === 'CheckoutPaid' && event.data.orderId === orderId) return event.data;
  }
  return undefined;
}

async function firstEventOf(store: Store, streamId: string) {
  const [first] = await store.readStream(streamId, { maxCount: 1 });
  return first;
}

async function detailsOf(store: Store, purpose: RowPurpose, company: string): Promise<KindDetails | undefined> {
  switch (purpose.kind) {
    case 'purchase': {
      const { state } = await loadPurchase({ store }, purpose.order_id);
      if (!state.order) return undefined;
      return {
        merchant: company,
        reference: purpose.order_id,
        orderId: purpose.order_id,
        usdPerMlx: state.order.usdPerMlx,
        ...(state.capture ? { usdPaidCents: state.capture.usdCents } : {}),
        providerTransactionId: purpose.capture_id,
      };
    }
    case 'checkout': {
      const paid = await checkoutPaidOf(store, purpose.order_id);
      return {
        reference: purpose.merchant_reference ?? purpose.first_item ?? purpose.order_id,
        orderId: purpose.order_id,
        ...(paid?.usdPerMlx === undefined ? {} : { usdPerMlx: paid.usdPerMlx }),
      };
    }
    case 'invoice_payment': {
      const first = await firstEventOf(store, invoiceStream(purpose.invoice_id));
      const created = first ? toInvoiceEvent(first) : undefined;
      const terms = created?.type === 'InvoiceCreated' ? created.data : undefined;
      return {
        reference: terms?.reference ?? purpose.invoice_id,
        orderId: purpose.invoice_id,
        // A USD invoice was converted at its own rate when it was created: that is the price paid.
        ...(terms?.currency === 'USD' && terms.usdPerMlx !== undefined ? { usdPerMlx: terms.usdPerMlx } : {}),
      };
    }
    case 'subscription_charge': {
      const first = await firstEventOf(store, subscriptionStream(purpose.subscription_id));
      const started = first ? toSubscriptionEvent(first) : undefined;
      const planName = started?.type === 'SubscriptionStarted' ? started.data.planName : undefined;
      return { reference: planName ?? purpose.subscription_id, orderId: purpose.subscription_id, period: purpose.period };
    }
    default:
      return undefined;
  }
}

/** The receipt of a completed row of a receipt kind, or undefined when the log does not back it. */
export async function buildReceipt(store: Store, entry: HistoryEntry, kind: ReceiptKind, company: string): Promise<Receipt | undefined> {
  const row = entry.transaction;
  const purpose = row.purpose;
  if (purpose === undefined) return undefined;
  const details = await detailsOf(store, purpose, company);
  if (!details) return undefined;
  const incoming = row.transaction_type === 'credit';
  const amount = BigInt(row.amount);
  const fee = BigInt(row.fee ?? '0');
  const usdPerMlx = details.usdPerMlx ?? (await rateInForceAt(store, entry.position)) ?? null;
  return {
    id: row.transaction_hash,
    kind,
    date: row.transaction_date,
    payer: (incoming ? row.to_user?.username : row.from_user?.username) ?? (incoming ? row.to_address : row.from_address),
    merchant: details.merchant ?? row.to_user?.username ?? row.to_address,
    reference: details.reference,
    order_id: details.orderId,
    period: details.period ?? null,
    amount_mlx: amount.toString(),
    fee_mlx: fee.toString(),
    total_mlx: (incoming ? amount : amount + fee).toString(),
    usd_per_mlx: usdPerMlx,
    usd_value: usdValueOf(amount, usdPerMlx),
    usd_paid: details.usdPaidCents === undefined ? null : dollars(details.usdPaidCents),
    provider_transaction_id: details.providerTransactionId ?? null,
  };
}
