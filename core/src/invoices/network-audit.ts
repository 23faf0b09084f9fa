/**
 * The invoice rule's part for payments from the millix network (issue 27, ADR 080). The MLX of a
 * deposit to an invoice's address are the merchant's the moment the wallet confirms it; the
 * invoice only records it (InvoicePaymentSeen, -Settled, -Failed, the payment's id being the
 * deposit's). So what can go wrong is the invoice's word: money counted on an invoice that never
 * arrived, one deposit counted twice, or counted on an invoice its address is not for. At the end
 * of the log each recorded stage must name a deposit the ledger accepted at that stage, to the
 * invoice's address, in its merchant's wallet, of the amount recorded, at an address the index
 * gives to that invoice. A stable deposit no invoice records yet is the invoice-payment job's lag,
 * counted as a figure: nothing is missing from any balance.
 */
import type { AuditReport, AuditWhere, DepositStage } from '../shared/audit-rule.js';

export type NetworkPaymentViolationCode =
  /** A stage recorded on an invoice with no deposit at that stage: seen unreceived, settled unconfirmed, failed unrejected. */
  | 'invoicePaymentWithoutDeposit'
  /** Its deposit went to another wallet or another address than the invoice's, or was of another amount. */
  | 'invoiceDepositMismatch'
  /** One deposit settled on two invoices, or twice on one. */
  | 'invoiceDepositCreditedTwice'
  /** The deposit's address is the invoice's, but the address index gives it to another invoice or none. */
  | 'invoiceAddressNotIndexed';

type PaymentStage = 'seen' | 'settled' | 'failed';

/** The deposit stages that let an invoice record each of its own: a seen payment was received (whatever came next). */
const DEPOSIT_STAGES_FOR: Readonly<Record<PaymentStage, readonly DepositStage['stage'][]>> = {
  seen: ['received', 'confirmed', 'rejected'],
  settled: ['confirmed'],
  failed: ['rejected'],
};

interface RecordedPayment {
  invoiceId: string;
  depositId: string;
  stage: PaymentStage;
  /** Absent for a failure, which names no amount. */
  amountMlx?: bigint;
  where: AuditWhere;
}

export interface InvoiceAddressBook {
  /** An invoice's merchant and address, from its InvoiceCreated. */
  invoice(invoiceId: string): { merchantUserId: string; address: string } | undefined;
}

export interface NetworkPaymentAudit {
  addIndex(address: string, invoiceId: string): void;
  addDeposit(deposit: DepositStage): void;
  addPayment(payment: RecordedPayment, report: AuditReport<NetworkPaymentViolationCode>): void;
  finalCheck(report: AuditReport<NetworkPaymentViolationCode>): void;
  /** Stable deposits to indexed invoice addresses that no invoice records as settled (yet). */
  unrecorded(): { deposits: number; mlx: bigint };
}

export function startNetworkPaymentAudit(invoices: InvoiceAddressBook): NetworkPaymentAudit {
  const index = new Map<string, string>();
  const deposits = new Map<string, Omit<DepositStage, 'depositId'>>();
  const payments: RecordedPayment[] = [];
  /** Each settled deposit's invoice, to find a second credit of it. */
  const settledOn = new Map<string, string>();

  function mismatch(payment: RecordedPayment): NetworkPaymentViolationCode | undefined {
    const deposit = deposits.get(payment.depositId);
    if (!deposit || !DEPOSIT_STAGES_FOR[payment.stage].includes(deposit.stage)) return 'invoicePaymentWithoutDeposit';
    const invoice = invoices.invoice(payment.invoiceId);
    const sameAmount = payment.amountMlx === undefined || payment.amountMlx === deposit.amountMlx;
    if (deposit.walletId !== invoice?.merchantUserId || deposit.toAddress !== invoice.address || !sameAmount)
      return 'invoiceDepositMismatch';
    return index.get(deposit.toAddress) === payment.invoiceId ? undefined : 'invoiceAddressNotIndexed';
  }

  return {
    addIndex(address, invoiceId) {
      // The index stream is created once ('no_stream'); the first assignment is the one the job reads.
      if (!index.has(address)) index.set(address, invoiceId);
    },
    addDeposit({ depositId, ...deposit }) {
      deposits.set(depositId, deposit);
    },
    addPayment(payment, report) {
      if (payment.stage === 'settled') {
        const earlier = settledOn.get(payment.depositId);
        if (earlier !== undefined)
          return report(
            'invoiceDepositCreditedTwice',
            `deposit ${payment.depositId} settled on invoice ${payment.invoiceId} after invoice ${earlier}`,
            payment.where,
          );
        settledOn.set(payment.depositId, payment.invoiceId);
      }
      payments.push(payment);
    },
    finalCheck(report) {
      for (const payment of payments) {
        const code = mismatch(payment);
        if (code === undefined) continue;
        const deposit = deposits.get(payment.depositId);
        const seen = deposit
          ? `deposit ${payment.depositId} (${deposit.stage}, ${deposit.amountMlx} MLX to ${deposit.toAddress} in wallet ${deposit.walletId}, index: ${index.get(deposit.toAddress) ?? 'none'})`
          : `deposit ${payment.depositId} (never received)`;
        const amount = payment.amountMlx === undefined ? '' : ` of ${payment.amountMlx} MLX`;
        report(code, `invoice ${payment.invoiceId} records a payment${amount} ${payment.stage} from ${seen}`, payment.where);
      }
    },
    unrecorded() {
      let count = 0;
      let mlx = 0n;
      for (const [depositId, deposit] of deposits)
        if (deposit.stage === 'confirmed' && index.has(deposit.toAddress) && !settledOn.has(depositId)) {
          count += 1;
          mlx += deposit.amountMlx;
        }
      return { deposits: count, mlx };
    },
  };
}
