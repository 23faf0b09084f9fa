/**
 * 'Pay with Quern' (issue 27): a Quern user pays what an invoice still misses from their balance,
 * in one atomic append of the transfer (payer and merchant) and the invoice's settled payment,
 * the same way a checkout is paid. An invoice is paid from a balance once: the transfer's id is
 * the invoice's, so a double click, a retry or a second tab pays nothing more (the invoice is then
 * paid, and the second decision refuses it as not payable).
 */
import { type Decision, handleCommand } from '../shared/command-handler.js';
import type { ReserveTransfer } from '../wallet/commands.js';
import { executeTransfer, type WalletDeps, walletAddressOf } from '../wallet/handlers.js';
import { decideInvoice, invoiceNotFound, quernPaymentDue } from './decider.js';
import { INVOICE_ID_PATTERN, type InvoiceEvent, invoiceStream } from './events.js';
import { type InvoiceState, evolveInvoice, invoiceModel } from './state.js';

export type PayFromBalanceDeps = Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>;

/** The one transfer that pays an invoice from a balance. */
export const invoiceBalanceTransferId = (invoiceId: string): string => `invoicepay-${invoiceId}`;

function balanceTransfer(invoice: InvoiceState, payerUserId: string, merchantAddress: string, amountMlx: bigint): ReserveTransfer {
  const transferId = invoiceBalanceTransferId(invoice.invoiceId);
  return {
    type: 'ReserveTransfer',
    data: {
      transferId,
      toAddress: merchantAddress,
      toWalletId: invoice.merchantUserId,
      amountMlx,
      feeMlx: 0n,
      idempotencyKey: `${transferId}-${payerUserId}`.slice(0, 128),
      reference: { kind: 'invoicePayment', invoiceId: invoice.invoiceId },
    },
  };
}

type Decided = { events: InvoiceEvent[]; amountMlx: bigint; invoice: InvoiceState };

/** Pays the amount the invoice misses from the payer's balance; answers the invoice after it and the amount paid. */
export async function payInvoiceFromBalance(
  deps: PayFromBalanceDeps,
  input: { invoiceId: string; payerUserId: string },
): Promise<{ invoice: InvoiceState; amountMlx: bigint; position?: bigint }> {
  if (!INVOICE_ID_PATTERN.test(input.invoiceId)) throw invoiceNotFound();
  let merchantAddress: string | undefined;
  const handled = await handleCommand(
    deps,
    invoiceStream(input.invoiceId),
    invoiceModel,
    (state, now): Decision<InvoiceEvent, Decided> => {
      if (!state) throw invoiceNotFound();
      const amountMlx = quernPaymentDue(state, now);
      const events = decideInvoice(
        state,
        {
          type: 'RecordInvoicePayment',
          data: { paymentId: invoiceBalanceTransferId(state.invoiceId), route: 'quern', amountMlx, stage: 'settled' },
        },
        now,
      );
      return { events, result: { events, amountMlx, invoice: state } };
    },
    {
      // The settled payment goes with the payer's and the merchant's transfer events in one append.
      appendWith: async (appends, { result }) => {
        merchantAddress ??= await walletAddressOf(deps, result.invoice.merchantUserId);
        if (merchantAddress === undefined) throw invoiceNotFound();
        const transfer = balanceTransfer(result.invoice, input.payerUserId, merchantAddress, result.amountMlx);
        const executed = await executeTransfer(deps, input.payerUserId, transfer, () => appends);
        return executed.position === undefined ? 'alreadyRecorded' : { position: executed.position };
      },
    },
  );
  let invoice = handled.result.invoice;
  for (const event of handled.result.events) invoice = evolveInvoice(invoice, event) ?? invoice;
  return { invoice, amountMlx: handled.result.amountMlx, ...(handled.position === undefined ? {} : { position: handled.position }) };
}
