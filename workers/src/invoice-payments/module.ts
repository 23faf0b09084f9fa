/** The invoice payments' registration (ADR 072): their queue, their rules and their processor, in every process. */
import type { JobModule } from '../job/job-module.js';
import { recordDepositOnInvoice } from './job.js';
import { INVOICE_PAYMENT_QUEUE } from './payload.js';
import { invoicePaymentRules } from './rules.js';

export const invoicePaymentModule: JobModule = {
  queue: INVOICE_PAYMENT_QUEUE,
  rules: invoicePaymentRules,
  processor: ({ store, clock }) => ({ process: (job) => recordDepositOnInvoice(job.data, { store, clock }) }),
};
