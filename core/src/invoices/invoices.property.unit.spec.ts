// Proves, over random histories of invoices paid from outside wallets and from Quern balances and refunded through claimed refunds (created, retried, claimed to Quern and outside addresses, canceled, their payouts posted or failed) (deposits to an invoice's address received, then confirmed or rejected; partial, exact, over and after the expiry; recorded on the invoice by the invoice-payment job's calls, in any order across deposits and with a deposit's settlement before or after its sighting; expiry, void and 'Pay with Quern') over an event store and the real handlers, that the audit finds no violation after any step and counts exactly the deposits not recorded yet, that an invoice's settled network payments are exactly its recorded confirmed deposits, that each wallet's balance moves by exactly its confirmed deposits and balance payments, that each invoice's status follows from what was recorded (paid when the settled MLX reach the amount, overpaid by the excess), and that paid and refunded amounts add up (refunds never hold more than what reached the invoice; a failed payout frees its refund's amount).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLedgerAuditor, type LedgerAudit } from '../audit/ledger.js';
import { recordIncomingTransaction } from '../wallet/deposits.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import {
  ensureSystemWallets,
  executeTransfer,
  executeWalletCommand,
  loadWallet,
  openUserWallet,
  type WalletDeps,
} from '../wallet/handlers.js';
import { availableMlx } from '../wallet/state.js';
import { MemoryEventStore } from '../../test/memory-event-store.js';
import { testAddress } from '../../test/wallet-fixtures.js';
import { transferTermsBook } from '../../test/wallet-rules.js';
import { createInvoice, expireInvoice, findInvoiceIdByAddress, readInvoice, recordInvoicePayment, voidInvoice } from './handlers.js';
import { payInvoiceFromBalance } from './pay-from-balance.js';
import { payoutTransferId } from '../payouts/events.js';
import { SEND_FEE_MLX } from '../wallet/money.js';
import { cancelInvoiceRefund, claimInvoiceRefund, createInvoiceRefundOnce, refundPayoutId } from './refunds.js';
import { invoiceAmounts, invoiceStatus, refundableMlx } from './state.js';

const MERCHANTS = ['m0', 'm1'];
const PAYERS = ['p0', 'p1'];
const START_MS = Date.parse('2026-11-27T12:00:00.000Z');
const MINUTE_MS = 60_000;
/** Scenarios and their length: the audit runs after every step, the rest at the end (a few seconds in all). */
const RUNS = 100;
const PROPERTY_SEED = 20_261_128;
const OPS_MAX = 40;

type Size = 'part' | 'rest' | 'exact' | 'over';
type Op =
  | { kind: 'create'; merchant: number; amountMlx: bigint; expiresInMin: number }
  | { kind: 'deposit'; invoice: number; size: Size; share: number }
  | { kind: 'depositToOwnAddress'; merchant: number; amountMlx: bigint }
  | { kind: 'settleDeposit'; pick: number; confirm: boolean }
  | { kind: 'runJob'; pick: number }
  | { kind: 'pay'; payer: number; invoice: number }
  | { kind: 'later'; minutes: number }
  | { kind: 'expire'; invoice: number }
  | { kind: 'void'; invoice: number; byMerchant: boolean }
  | { kind: 'refund'; invoice: number; share: number; retry: boolean }
  | { kind: 'claimRefund'; refund: number; toPayer: number | undefined }
  | { kind: 'cancelRefund'; refund: number }
  | { kind: 'settlePayout'; pick: number; post: boolean };

const pick = fc.nat(1000);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      merchant: fc.nat(MERCHANTS.length - 1),
      amountMlx: fc.bigInt(1n, 20_000n),
      expiresInMin: fc.integer({ min: 1, max: 60 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      invoice: pick,
      size: fc.constantFrom<Size>('part', 'rest', 'exact', 'over'),
      share: fc.integer({ min: 1, max: 99 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('depositToOwnAddress' as const),
      merchant: fc.nat(MERCHANTS.length - 1),
      amountMlx: fc.bigInt(1n, 5_000n),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('settleDeposit' as const), pick, confirm: fc.constantFrom(true, true, true, false) }),
  },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('runJob' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pay' as const), payer: fc.nat(PAYERS.length - 1), invoice: pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('later' as const), minutes: fc.integer({ min: 1, max: 45 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('expire' as const), invoice: pick }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('void' as const), invoice: pick, byMerchant: fc.constantFrom(true, true, false) }),
  },
  {
    weight: 4,
    // share 0: all that is refundable; above 100: more than that, which is refused.
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      invoice: pick,
      share: fc.integer({ min: 0, max: 120 }),
      retry: fc.constantFrom(false, false, false, true),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('claimRefund' as const),
      refund: pick,
      toPayer: fc.constantFrom<number | undefined>(undefined, undefined, 0, 1),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelRefund' as const), refund: pick }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('settlePayout' as const), pick, post: fc.constantFrom(true, false) }) },
);

/**
 * Half the runs start with two invoices paid from the network and recorded, so that refunds, their
 * claims and payouts (which need MLX that reached an invoice) are reached often enough to prove much.
 */
const PAID_START: Op[] = [0, 1].flatMap((merchant): Op[] => [
  { kind: 'create', merchant, amountMlx: 8_000n, expiresInMin: 30 },
  { kind: 'deposit', invoice: merchant, size: 'over', share: 50 },
  { kind: 'settleDeposit', pick: 0, confirm: true },
  { kind: 'runJob', pick: 0 },
  { kind: 'runJob', pick: 0 },
]);

/** A refund as the test made it, and the payout that sends it once claimed. */
interface ModelRefund {
  refundId: string;
  invoice: ModelInvoice;
  amountMlx: bigint;
  key: string;
  share: number;
  state: 'open' | 'claimed' | 'canceled';
  toAddress?: string;
  payout?: { transferId: string; external: boolean; outcome: 'reserved' | 'posted' | 'voided' };
}

/** What a refund holds against its invoice: not canceled, and its payout did not fail. */
const holds = (refund: ModelRefund): boolean => refund.state !== 'canceled' && refund.payout?.outcome !== 'voided';

/** What the test knows of an invoice from what it did, independently of the invoice's fold. */
interface ModelInvoice {
  invoiceId: string;
  merchant: string;
  address: string;
  amountMlx: bigint;
  expiresAtMs: number;
  voided: boolean;
  expired: boolean;
  /** The deposits' stages recorded on it, by deposit id. */
  recorded: Map<string, { amountMlx: bigint; stage: 'seen' | 'settled' | 'failed' }>;
  balancePaidMlx: bigint;
}

interface ModelDeposit {
  depositId: string;
  walletId: string;
  toAddress: string;
  amountMlx: bigint;
  stage: 'received' | 'confirmed' | 'rejected';
  /** Undefined for a deposit to the wallet's own address: no invoice job is asked for. */
  invoice: ModelInvoice | undefined;
}

/** A job the dispatcher asked for: record one stage of a deposit on its invoice. */
interface Job {
  deposit: ModelDeposit;
  stage: 'seen' | 'settled' | 'failed';
}

const sumRecorded = (invoice: ModelInvoice, stage: 'seen' | 'settled'): bigint =>
  [...invoice.recorded.values()].reduce((sum, payment) => (payment.stage === stage ? sum + payment.amountMlx : sum), 0n);
const settledOf = (invoice: ModelInvoice): bigint => sumRecorded(invoice, 'settled') + invoice.balancePaidMlx;

/** The status issue 27 gives an invoice, from the model: void, paid, expired, processing, partially paid, open. */
function expectedStatus(invoice: ModelInvoice): string {
  if (invoice.voided) return 'void';
  if (settledOf(invoice) >= invoice.amountMlx) return 'paid';
  if (invoice.expired) return 'expired';
  if (sumRecorded(invoice, 'seen') > 0n) return 'processing';
  return settledOf(invoice) > 0n ? 'partially_paid' : 'open';
}

const counter = (prefix: number) => {
  let n = 0;
  return () => {
    n += 1;
    return new Uint8Array(20).map((_, i) => (i === 0 ? prefix : i === 1 ? n : 0));
  };
};

/** How often each outcome was reached: none yet. */
const noOutcomes = () => ({
  paidByNetwork: 0,
  overpaid: 0,
  paidFromBalance: 0,
  short: 0,
  notPayable: 0,
  rejected: 0,
  late: 0,
  voided: 0,
  refunded: 0,
  refundTooLarge: 0,
  claimedToQuern: 0,
  claimedExternal: 0,
  claimRefused: 0,
  payoutFailed: 0,
});

class Scenario {
  readonly store = new MemoryEventStore();
  private nowMs = START_MS;
  private invoiceIds = 0;
  private serial = 0;
  readonly deps: WalletDeps & { newInvoiceId: () => string; newAddressBase: () => Uint8Array } = {
    store: this.store,
    transferTerms: transferTermsBook,
    clock: { now: () => new Date(this.nowMs) },
    newId: () => `id-${++this.serial}`,
    newKeyIdentifier: counter(0x10),
    network: 'mainnet',
    payees: { userIdByUsername: async () => undefined, payeeByEmail: async () => undefined, usernameOf: async () => undefined },
    newInvoiceId: () => `in_${(++this.invoiceIds).toString(16).padStart(32, '0')}`,
    newAddressBase: counter(0xb0),
  };
  readonly invoices: ModelInvoice[] = [];
  readonly deposits: ModelDeposit[] = [];
  readonly jobs: Job[] = [];
  /** Each wallet's available MLX as the model expects it. */
  readonly balances = new Map<string, bigint>();
  readonly addresses = new Map<string, string>();
  readonly refunds: ModelRefund[] = [];
  readonly reached = noOutcomes();
  private readonly auditor = createLedgerAuditor();
  private audited: bigint | undefined;

  async open(fundingMlx: readonly bigint[]): Promise<void> {
    await ensureSystemWallets(this.deps, { supplyMlx: 10_000_000_000n, reserveFundingMlx: 1_000_000_000n });
    for (const userId of [...MERCHANTS, ...PAYERS]) {
      this.addresses.set(userId, await openUserWallet(this.deps, userId));
      this.balances.set(userId, 0n);
    }
    for (const [i, amountMlx] of fundingMlx.entries()) {
      const payer = PAYERS[i] as string;
      if (amountMlx === 0n) continue;
      const data = { transferId: `fund-${payer}`, toAddress: this.addresses.get(payer) ?? '', toWalletId: payer, amountMlx, feeMlx: 1000n };
      await executeTransfer(this.deps, SYSTEM_WALLET_IDS.reserve, { type: 'ReserveTransfer', data });
      this.balances.set(payer, amountMlx);
    }
  }

  private credit(walletId: string, amountMlx: bigint): void {
    this.balances.set(walletId, (this.balances.get(walletId) ?? 0n) + amountMlx);
  }

  private invoiceAt(index: number): ModelInvoice | undefined {
    return this.invoices.length === 0 ? undefined : this.invoices[index % this.invoices.length];
  }

  /** A job may run whenever a queue gets to it, a deposit's failure before its sighting too. */
  private runnable(): Job[] {
    return this.jobs;
  }

  async apply(op: Op): Promise<void> {
    switch (op.kind) {
      case 'create': {
        const merchantAddress = this.addresses.get(MERCHANTS[op.merchant] as string) ?? '';
        const expiresAtMs = this.nowMs + op.expiresInMin * MINUTE_MS;
        const terms = {
          amountMlx: op.amountMlx.toString(),
          currency: 'MLX' as const,
          metadata: {},
          expiresAt: new Date(expiresAtMs).toISOString(),
        };
        const merchant = MERCHANTS[op.merchant] as string;
        const { invoice } = await createInvoice(this.deps, { merchantUserId: merchant, merchantAddress, terms });
        const { invoiceId, address } = invoice;
        this.invoices.push({
          invoiceId,
          merchant,
          address,
          amountMlx: op.amountMlx,
          expiresAtMs,
          voided: false,
          expired: false,
          recorded: new Map(),
          balancePaidMlx: 0n,
        });
        return;
      }
      case 'deposit': {
        const invoice = this.invoiceAt(op.invoice);
        if (!invoice) return;
        const due = invoice.amountMlx - settledOf(invoice);
        const part = (invoice.amountMlx * BigInt(op.share)) / 100n;
        const sizes: Record<Size, bigint> = {
          part: part > 0n ? part : 1n,
          rest: due > 0n ? due : invoice.amountMlx,
          exact: invoice.amountMlx,
          over: invoice.amountMlx + part + 1n,
        };
        if (this.nowMs >= invoice.expiresAtMs) this.reached.late += 1;
        await this.receive(invoice.merchant, invoice.address, sizes[op.size], invoice);
        return;
      }
      case 'depositToOwnAddress': {
        const merchant = MERCHANTS[op.merchant] as string;
        await this.receive(merchant, this.addresses.get(merchant) ?? '', op.amountMlx, undefined);
        return;
      }
      case 'settleDeposit':
        return this.settleDeposit(op.pick, op.confirm);
      case 'runJob': {
        const runnable = this.runnable();
        const job = runnable[op.pick % Math.max(runnable.length, 1)];
        if (job) await this.runJob(job);
        return;
      }
      case 'pay':
        return this.pay(PAYERS[op.payer] as string, op.invoice);
      case 'later':
        this.nowMs += op.minutes * MINUTE_MS;
        return;
      case 'expire':
        return this.expire(op.invoice);
      case 'void':
        return this.void(op.invoice, op.byMerchant);
      case 'refund':
        return this.refund(op);
      case 'claimRefund':
        return this.claimRefund(op.refund, op.toPayer);
      case 'cancelRefund':
        return this.cancelRefund(op.refund);
      case 'settlePayout':
        return this.settlePayout(op.pick, op.post);
    }
  }

  private refundableOf(invoice: ModelInvoice): bigint {
    const held = this.refunds.filter((refund) => refund.invoice === invoice && holds(refund)).reduce((sum, r) => sum + r.amountMlx, 0n);
    const rest = settledOf(invoice) - held;
    return rest > 0n ? rest : 0n;
  }

  /** The merchant refunds a share of what is refundable (0: all of it), or retries its last refund with the same key. */
  private async refund(op: { invoice: number; share: number; retry: boolean }): Promise<void> {
    const last = this.refunds[this.refunds.length - 1];
    if (op.retry && last) {
      const again = await createInvoiceRefundOnce(this.deps, {
        merchantUserId: last.invoice.merchant,
        invoiceId: last.invoice.invoiceId,
        idempotencyKey: last.key,
        ...(last.share === 0 ? {} : { amountMlx: last.amountMlx }),
      });
      expect(again.refundId).toBe(last.refundId);
      expect(again.position).toBeUndefined();
      return;
    }
    const invoice = this.invoiceAt(op.invoice);
    if (!invoice) return;
    const refundable = this.refundableOf(invoice);
    const share = (refundable * BigInt(op.share)) / 100n;
    const amountMlx = op.share === 0 ? refundable : share > 0n ? share : 1n;
    const key = `refund-key-${++this.serial}`;
    const creating = createInvoiceRefundOnce(this.deps, {
      merchantUserId: invoice.merchant,
      invoiceId: invoice.invoiceId,
      idempotencyKey: key,
      ...(op.share === 0 ? {} : { amountMlx }),
    });
    if (refundable === 0n) return void (await expect(creating).rejects.toMatchObject({ reason: 'nothingToRefund' }));
    if (amountMlx > refundable) {
      this.reached.refundTooLarge += 1;
      return void (await expect(creating).rejects.toMatchObject({ code: 'VALIDATION', messageKey: 'errors:invoiceRefundTooLarge' }));
    }
    const { refundId } = await creating;
    this.refunds.push({ refundId, invoice, amountMlx, key, share: op.share, state: 'open' });
  }

  /** The payer claims a refund, to a payer's Quern address or to an address outside Quern. */
  private async claimRefund(index: number, toPayer: number | undefined): Promise<void> {
    const refund = this.refunds[index % Math.max(this.refunds.length, 1)];
    if (!refund) return;
    const payer = toPayer === undefined ? undefined : (PAYERS[toPayer] as string);
    const toAddress = payer === undefined ? testAddress(700 + (this.serial % 50)) : (this.addresses.get(payer) ?? '');
    const claiming = claimInvoiceRefund(this.deps, { refundId: refund.refundId, toAddress });
    const merchant = refund.invoice.merchant;
    const cost = refund.amountMlx + SEND_FEE_MLX;
    if (refund.state === 'canceled') return void (await expect(claiming).rejects.toMatchObject({ reason: 'canceled' }));
    if (refund.state === 'claimed') {
      if (refund.toAddress === toAddress) return void (await claiming);
      return void (await expect(claiming).rejects.toMatchObject({ reason: 'alreadyClaimed' }));
    }
    if ((this.balances.get(merchant) ?? 0n) < cost) {
      this.reached.claimRefused += 1;
      return void (await expect(claiming).rejects.toMatchObject({ messageKey: 'errors:refundClaimMerchantCannotPay' }));
    }
    await claiming;
    refund.state = 'claimed';
    refund.toAddress = toAddress;
    const transferId = payoutTransferId(refundPayoutId(merchant, refund.refundId));
    this.credit(merchant, -cost);
    if (payer === undefined) {
      refund.payout = { transferId, external: true, outcome: 'reserved' };
      this.reached.claimedExternal += 1;
    } else {
      this.credit(payer, refund.amountMlx);
      refund.payout = { transferId, external: false, outcome: 'posted' };
      this.reached.claimedToQuern += 1;
    }
  }

  private async cancelRefund(index: number): Promise<void> {
    const refund = this.refunds[index % Math.max(this.refunds.length, 1)];
    if (!refund) return;
    const canceling = cancelInvoiceRefund(this.deps, refund.invoice.merchant, refund.invoice.invoiceId, refund.refundId);
    if (refund.state === 'claimed') return void (await expect(canceling).rejects.toMatchObject({ reason: 'alreadyClaimed' }));
    await canceling;
    refund.state = 'canceled';
  }

  /** The settlement worker sends an external refund's payout to the network (posted) or the network refuses it (voided). */
  private async settlePayout(index: number, post: boolean): Promise<void> {
    const open = this.refunds.filter((refund) => refund.payout?.external && refund.payout.outcome === 'reserved');
    const refund = open[index % Math.max(open.length, 1)];
    if (!refund?.payout) return;
    const { transferId } = refund.payout;
    await executeWalletCommand(
      this.deps,
      refund.invoice.merchant,
      post
        ? {
            type: 'PostTransfer',
            data: { transferId, networkTransactionHash: `${'ab'.repeat(31)}${(++this.serial % 100).toString().padStart(2, '0')}` },
          }
        : { type: 'VoidTransfer', data: { transferId, reason: 'networkRejected' } },
    );
    refund.payout.outcome = post ? 'posted' : 'voided';
    if (!post) {
      this.credit(refund.invoice.merchant, refund.amountMlx + SEND_FEE_MLX);
      this.reached.payoutFailed += 1;
    }
  }

  private async receive(walletId: string, toAddress: string, amountMlx: bigint, invoice: ModelInvoice | undefined): Promise<void> {
    const transactionHash = `tx${++this.serial}`;
    const incoming = {
      transactionHash,
      outputPosition: 0,
      toAddress,
      fromAddress: testAddress(500),
      amountMlx,
      observedAt: new Date(this.nowMs).toISOString(),
    };
    const received = await recordIncomingTransaction(this.deps, incoming);
    expect(received).toMatchObject({ outcome: 'recorded', walletId });
    const deposit: ModelDeposit = { depositId: `${transactionHash}:0`, walletId, toAddress, amountMlx, stage: 'received', invoice };
    this.deposits.push(deposit);
    if (invoice) this.jobs.push({ deposit, stage: 'seen' });
  }

  private async settleDeposit(index: number, confirm: boolean): Promise<void> {
    const open = this.deposits.filter((deposit) => deposit.stage === 'received');
    const deposit = open[index % Math.max(open.length, 1)];
    if (!deposit) return;
    const { depositId } = deposit;
    await executeWalletCommand(
      this.deps,
      deposit.walletId,
      confirm
        ? { type: 'ConfirmDeposit', data: { depositId } }
        : { type: 'RejectDeposit', data: { depositId, reason: 'networkInvalidated' } },
    );
    deposit.stage = confirm ? 'confirmed' : 'rejected';
    if (confirm) this.credit(deposit.walletId, deposit.amountMlx);
    else this.reached.rejected += 1;
    if (deposit.invoice) this.jobs.push({ deposit, stage: confirm ? 'settled' : 'failed' });
  }

  /** What the invoice-payment job does (workers/src/invoice-payments/job.ts): find the invoice by the address, record the stage. */
  private async runJob(job: Job): Promise<void> {
    this.jobs.splice(this.jobs.indexOf(job), 1);
    const { deposit, stage } = job;
    const invoice = deposit.invoice;
    if (!invoice) throw new Error('a job for a deposit to no invoice');
    expect(await findInvoiceIdByAddress(this.deps, deposit.toAddress)).toBe(invoice.invoiceId);
    await recordInvoicePayment(this.deps, invoice.invoiceId, {
      paymentId: deposit.depositId,
      route: 'network',
      amountMlx: deposit.amountMlx,
      stage,
    });
    // The decider's rules for a stage (decider.ts): a stage already known records nothing; a failure
    // is recorded whether or not the payment was seen, and a sighting after it records nothing.
    const known = invoice.recorded.get(deposit.depositId);
    if (stage === 'settled' && known?.stage !== 'settled') invoice.recorded.set(deposit.depositId, { amountMlx: deposit.amountMlx, stage });
    if (stage === 'seen' && !known) invoice.recorded.set(deposit.depositId, { amountMlx: deposit.amountMlx, stage });
    if (stage === 'failed' && known?.stage !== 'failed') invoice.recorded.set(deposit.depositId, { amountMlx: deposit.amountMlx, stage });
  }

  private async pay(payer: string, index: number): Promise<void> {
    const invoice = this.invoiceAt(index);
    if (!invoice) return;
    const status = expectedStatus(invoice);
    const due = invoice.amountMlx - settledOf(invoice);
    const payable = (status === 'open' || status === 'partially_paid') && this.nowMs < invoice.expiresAtMs;
    const paying = payInvoiceFromBalance(this.deps, { invoiceId: invoice.invoiceId, payerUserId: payer });
    if (!payable) {
      this.reached.notPayable += 1;
      await expect(paying).rejects.toMatchObject({ reason: 'notPayable' });
      return;
    }
    if ((this.balances.get(payer) ?? 0n) < due) {
      this.reached.short += 1;
      await expect(paying).rejects.toMatchObject({ refusal: { kind: 'insufficientFunds' } });
      return;
    }
    expect((await paying).amountMlx).toBe(due);
    invoice.balancePaidMlx += due;
    this.credit(payer, -due);
    this.credit(invoice.merchant, due);
  }

  private async expire(index: number): Promise<void> {
    const invoice = this.invoiceAt(index);
    if (!invoice) return;
    const status = expectedStatus(invoice);
    await expireInvoice(this.deps, invoice.invoiceId);
    if (this.nowMs >= invoice.expiresAtMs && (status === 'open' || status === 'partially_paid')) invoice.expired = true;
  }

  private async void(index: number, byMerchant: boolean): Promise<void> {
    const invoice = this.invoiceAt(index);
    if (!invoice) return;
    const voiding = voidInvoice(this.deps, invoice.invoiceId, byMerchant ? invoice.merchant : 'someone-else');
    const counted = invoice.balancePaidMlx > 0n || [...invoice.recorded.values()].some((payment) => payment.stage !== 'failed');
    if (!byMerchant) await expect(voiding).rejects.toMatchObject({ code: 'NOT_FOUND' });
    else if (invoice.voided) await voiding;
    else if (counted) await expect(voiding).rejects.toMatchObject({ reason: 'hasPayments' });
    else if (invoice.expired) await expect(voiding).rejects.toMatchObject({ reason: 'notOpen' });
    else {
      await voiding;
      invoice.voided = true;
      this.reached.voided += 1;
    }
  }

  /** Runs every job still asked for, as the workers eventually do. */
  async drain(): Promise<void> {
    for (let job = this.runnable()[0]; job; job = this.runnable()[0]) await this.runJob(job);
    expect(this.jobs).toEqual([]);
  }

  /** The audit of the log so far (read through the store as `npm run audit` reads it): no violation, and the figures the model expects. */
  async audit(): Promise<LedgerAudit> {
    for (
      let page = await this.store.readAll({ after: this.audited, maxCount: 500 });
      page.length > 0;
      page = await this.store.readAll({ after: this.audited, maxCount: 500 })
    )
      for (const event of page) {
        this.auditor.add(event);
        this.audited = event.position;
      }
    const audit = this.auditor.summary();
    expect(audit.violations).toEqual([]);
    const notRecorded = this.deposits.filter(
      (d) => d.invoice && d.stage === 'confirmed' && d.invoice.recorded.get(d.depositId)?.stage !== 'settled',
    );
    expect(audit.invoices).toEqual({
      invoices: this.invoices.length,
      paidFromNetworkMlx: this.invoices.reduce((sum, invoice) => sum + sumRecorded(invoice, 'settled'), 0n),
      paidFromBalanceMlx: this.invoices.reduce((sum, invoice) => sum + invoice.balancePaidMlx, 0n),
      depositsNotRecorded: notRecorded.length,
      depositsNotRecordedMlx: notRecorded.reduce((sum, deposit) => sum + deposit.amountMlx, 0n),
      refunds: this.refunds.length,
      refundedMlx: this.refunds.filter((r) => r.payout?.outcome === 'posted').reduce((sum, r) => sum + r.amountMlx, 0n),
      refundsAwaitingClaim: this.refunds.filter((r) => r.state === 'open').length,
    });
    return audit;
  }

  /** Once every job ran, each deposit to an invoice stands on it at its own stage: seen while open, settled, or failed. */
  async checkEveryStageRecorded(): Promise<void> {
    const stageOnInvoice = { received: 'seen', confirmed: 'settled', rejected: 'failed' } as const;
    for (const deposit of this.deposits) {
      if (!deposit.invoice) continue;
      const state = await readInvoice(this.deps, deposit.invoice.invoiceId);
      expect(state?.payments.get(deposit.depositId)?.stage, deposit.depositId).toBe(stageOnInvoice[deposit.stage]);
    }
  }

  /** The outcomes the invoices reached, at the end of a run. */
  tally(): void {
    for (const invoice of this.invoices) {
      if (expectedStatus(invoice) === 'paid' && sumRecorded(invoice, 'settled') > 0n) this.reached.paidByNetwork += 1;
      if (settledOf(invoice) > invoice.amountMlx) this.reached.overpaid += 1;
      if (invoice.balancePaidMlx > 0n) this.reached.paidFromBalance += 1;
    }
    this.reached.refunded += this.refunds.filter((refund) => refund.payout?.outcome === 'posted').length;
  }

  /** Each invoice as its stream folds it, and each wallet, against the model. */
  async checkInvoicesAndBalances(): Promise<void> {
    for (const model of this.invoices) {
      const state = await readInvoice(this.deps, model.invoiceId);
      if (!state) throw new Error(`invoice ${model.invoiceId} is gone`);
      const network = [...state.payments.values()].filter((payment) => payment.route === 'network' && payment.stage === 'settled');
      const confirmedRecorded = this.deposits.filter(
        (d) => d.invoice === model && d.stage === 'confirmed' && model.recorded.get(d.depositId)?.stage === 'settled',
      );
      expect(network.reduce((sum, payment) => sum + payment.amountMlx, 0n)).toBe(
        confirmedRecorded.reduce((sum, d) => sum + d.amountMlx, 0n),
      );
      const amounts = invoiceAmounts(state);
      const settled = settledOf(model);
      expect(amounts.settledMlx).toBe(settled);
      expect(amounts.overpaidMlx).toBe(settled > model.amountMlx ? settled - model.amountMlx : 0n);
      expect(invoiceStatus(state)).toBe(expectedStatus(model));
      if (!model.voided) expect(invoiceStatus(state) === 'paid').toBe(settled >= model.amountMlx);
      // Paid and refunded add up: what the refunds hold never exceeds what reached the invoice.
      const failed = new Set(this.refunds.filter((r) => r.payout?.outcome === 'voided').map((r) => r.refundId));
      expect(refundableMlx(state, failed)).toBe(this.refundableOf(model));
    }
    for (const [walletId, expectedMlx] of this.balances)
      expect(availableMlx((await loadWallet(this.deps, walletId)).state)).toBe(expectedMlx);
  }
}

describe('invoice properties', () => {
  it('given random invoice histories, when each step is applied, then the audit is clean and invoices, figures and balances are what the deposits and payments make them', async () => {
    const reached = noOutcomes();
    const fundingArb = fc.tuple(fc.bigInt(0n, 30_000n), fc.bigInt(0n, 30_000n));
    await fc.assert(
      fc.asyncProperty(
        fundingArb,
        fc.boolean(),
        fc.array(opArb, { minLength: 1, maxLength: OPS_MAX, size: 'max' }),
        async (funding, paidStart, ops) => {
          const scenario = new Scenario();
          await scenario.open(funding);
          for (const op of paidStart ? [...PAID_START, ...ops] : ops) {
            await scenario.apply(op);
            await scenario.audit();
          }
          await scenario.checkInvoicesAndBalances();
          await scenario.drain();
          expect((await scenario.audit()).invoices).toMatchObject({ depositsNotRecorded: 0, depositsNotRecordedMlx: 0n });
          await scenario.checkInvoicesAndBalances();
          await scenario.checkEveryStageRecorded();
          scenario.tally();
          for (const key of Object.keys(reached) as (keyof typeof reached)[]) reached[key] += scenario.reached[key];
        },
      ),
      // A fixed seed: the outcome counts below are checked for these 100 histories, so a run never
      // fails because chance left out a rare outcome (a claim the merchant's balance cannot cover,
      // a payout the network refuses). Change the seed to explore other histories; a failure prints its own.
      { numRuns: RUNS, seed: PROPERTY_SEED },
    );
    // The runs must reach every outcome, or they prove little (each bound is well below what runs reach).
    expect(reached.paidByNetwork).toBeGreaterThan(5);
    expect(reached.overpaid).toBeGreaterThan(4);
    expect(reached.paidFromBalance).toBeGreaterThan(4);
    expect(reached.short).toBeGreaterThan(2);
    expect(reached.notPayable).toBeGreaterThan(5);
    expect(reached.rejected).toBeGreaterThan(5);
    expect(reached.late).toBeGreaterThan(5);
    expect(reached.voided).toBeGreaterThan(2);
    expect(reached.refunded).toBeGreaterThan(4);
    expect(reached.refundTooLarge).toBeGreaterThan(2);
    expect(reached.claimedToQuern).toBeGreaterThan(2);
    expect(reached.claimedExternal).toBeGreaterThan(2);
    expect(reached.claimRefused).toBeGreaterThan(0);
    expect(reached.payoutFailed).toBeGreaterThan(0);
  }, 60_000);
});
