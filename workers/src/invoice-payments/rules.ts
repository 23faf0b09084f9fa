/**
 * The invoice-payment dispatch rules (issue 27): each stage of a deposit (received, confirmed,
 * rejected) to another address of a wallet than its own asks for a job that records that stage on
 * the invoice the address belongs to; the invoice's own event (InvoicePaymentSeen, -Settled,
 * -Failed, whose payment id is the deposit's) records the job as done. Whether an address is a
 * wallet's own is read from the event alone: a wallet's own address has its key identifier as its
 * base, an invoice's a fresh one (wallet/address.ts, deriveAddress).
 */
import type { RecordedEvent } from '@quern/core';
import { toInvoiceEvent } from '@quern/core/invoices';
import { parseAddress, toWalletEvent } from '@quern/core/wallet';
import type { DispatchRule } from '../job/dispatch-rule.js';
import {
  INVOICE_PAYMENT_JOB_NAME,
  INVOICE_PAYMENT_QUEUE,
  type InvoicePaymentPayload,
  type InvoicePaymentStage,
  invoicePaymentJobId,
  invoicePaymentPayload,
} from './payload.js';

const STAGES: ReadonlyArray<{ request: string; completion: string; stage: InvoicePaymentStage }> = [
  { request: 'DepositReceived', completion: 'InvoicePaymentSeen', stage: 'seen' },
  { request: 'DepositConfirmed', completion: 'InvoicePaymentSettled', stage: 'settled' },
  { request: 'DepositRejected', completion: 'InvoicePaymentFailed', stage: 'failed' },
];

const isAnotherAddressOfItsWallet = (address: string | undefined): boolean => {
  const parsed = address === undefined ? undefined : parseAddress(address);
  return parsed?.ok === true && parsed.base !== parsed.keyIdentifier;
};

/** The deposit event's fields the job needs; throws on an event that is not that deposit stage. */
function depositOf(recorded: RecordedEvent, type: string): { walletId: string; depositId: string; toAddress?: string; amountMlx: string } {
  const event = toWalletEvent(recorded);
  if (event?.type !== type || !('depositId' in event.data))
    throw new Error(`${recorded.type} at position ${recorded.position} is not a well-formed ${type}`);
  const { walletId, depositId, amountMlx } = event.data;
  const toAddress = 'toAddress' in event.data ? event.data.toAddress : undefined;
  return toAddress === undefined ? { walletId, depositId, amountMlx } : { walletId, depositId, toAddress, amountMlx };
}

function stageRule({ request, completion, stage }: (typeof STAGES)[number]): DispatchRule {
  const payloadOf = (recorded: RecordedEvent): InvoicePaymentPayload => {
    const deposit = depositOf(recorded, request);
    return invoicePaymentPayload.parse({ ...deposit, stage });
  };
  return {
    request,
    completions: [completion],
    queue: INVOICE_PAYMENT_QUEUE,
    name: INVOICE_PAYMENT_JOB_NAME,
    needsJob: (recorded) => isAnotherAddressOfItsWallet(depositOf(recorded, request).toAddress),
    jobId: (recorded) => invoicePaymentJobId(stage, depositOf(recorded, request).depositId),
    payload: payloadOf,
    matchCompletion: (recorded) => {
      const event = toInvoiceEvent(recorded);
      if (event?.type !== completion || !('paymentId' in event.data))
        throw new Error(`${recorded.type} at position ${recorded.position} is not a well-formed ${completion}`);
      return invoicePaymentJobId(stage, event.data.paymentId);
    },
  };
}

export const invoicePaymentRules: readonly DispatchRule[] = STAGES.map(stageRule);
