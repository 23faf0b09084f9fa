// Proves the purchase invariants of the ledger audit: a sound purchase log (order, capture, credit, refund, reversal) passes, and each kind of corruption (a credit without its transfer or transfer without its credit, another amount, a second credit of a capture, a credit without a capture, more MLX taken back than credited, a refund transfer of another amount) is reported.
import { describe, expect, it } from 'vitest';
import { type LedgerRecord, auditLedger } from '../audit/ledger.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import { MemoryLedger, testAddress } from '../../test/wallet-fixtures.js';
import { parseExchangeRate } from '../wallet/money.js';
import { PurchaseLedger } from '../../test/purchase-ledger.js';

const parsed = parseExchangeRate('0.000012');
if (!parsed.ok) throw new Error('rate');
const rate = parsed.rate;

function soundLog(): { ledger: MemoryLedger; purchases: PurchaseLedger } {
  const ledger = new MemoryLedger();
  ledger.bootstrap(10_000_000_000n, 1_000_000_000n);
  ledger.open('alice', 'user', testAddress(1), 'alice');
  const purchases = new PurchaseLedger(ledger);
  for (const orderId of ['O1', 'O2']) {
    purchases.command({
      type: 'OrderPurchase',
      data: { orderId, buyerUserId: 'alice', usdCents: 1000n, rate, reserveAvailableMlx: 10n ** 12n },
    });
    purchases.command({ type: 'RequestCapture', data: { orderId, requestId: 'r' } });
    purchases.command({
      type: 'RecordCaptureResult',
      data: { orderId, result: { status: 'completed', captureId: `C${orderId}`, usdCents: 1000n } },
    });
    expect(purchases.credit(orderId, {})).toEqual({ ok: true, moved: true });
  }
  expect(purchases.giveBack('O1', { kind: 'refund', captureId: 'CO1', id: 'R1', usdCents: 400n })).toEqual({ ok: true, moved: true });
  expect(purchases.giveBack('O2', { kind: 'reversal', captureId: 'CO2', id: 'V1', usdCents: 1000n })).toEqual({ ok: true, moved: true });
  return { ledger, purchases };
}

const codes = (log: LedgerRecord[]) => auditLedger(log).violations.map((v) => v.code);
const data = (record: LedgerRecord | undefined) => record?.data as Record<string, unknown>;
const findIndex = (log: LedgerRecord[], type: string, streamPrefix = '') =>
  log.findIndex((r) => r.type === type && r.streamId.startsWith(streamPrefix));

describe('the purchase audit', () => {
  it('given a sound purchase log, when audited, then no violation and the purchase figures add up', () => {
    const { ledger } = soundLog();
    const audit = auditLedger(ledger.log);
    expect(audit.violations).toEqual([]);
    expect(audit.purchases).toEqual({
      ordered: 2,
      captured: 2,
      credited: 2,
      creditedMlx: 2n * 833_333n,
      returns: 2,
      returnedMlx: 333_334n + 833_333n,
      refunds: 1,
      refundedMlx: 333_334n,
      reversals: 1,
      reversedMlx: 833_333n,
      reserveLosses: 0,
      reserveLossMlx: 0n,
    });
  });

  it('given a PurchaseCredited without its transfer, when audited, then purchaseTransferMismatch', () => {
    const { ledger } = soundLog();
    const credit = ledger.log.find((r) => r.type === 'PurchaseCredited') as LedgerRecord;
    expect(codes([...ledger.log, { ...credit, streamId: 'purchase-O3', data: { ...data(credit), orderId: 'O3' } }])).toContain(
      'purchaseEventBeforeOrder',
    );
    const log = ledger.log.filter((r) => !(r.type === 'PurchaseCredited' && data(r).orderId === 'O1'));
    expect(codes(log)).toContain('purchaseTransferMismatch');
  });

  it('given a credit of another amount, or a capture credited twice, or a credit of no capture, when audited, then each is reported', () => {
    const { ledger } = soundLog();
    const at = findIndex(ledger.log, 'PurchaseCredited');
    const credit = ledger.log[at] as LedgerRecord;
    const other = [...ledger.log];
    other[at] = { ...credit, data: { ...data(credit), mlx: '833334' } };
    expect(codes(other)).toEqual(expect.arrayContaining(['purchaseCreditMismatch', 'purchaseTransferMismatch']));
    expect(codes([...ledger.log, credit])).toContain('purchaseCreditedTwice');
    const noCapture = ledger.log.filter((r) => !(r.type === 'PurchaseCaptured' && data(r).orderId === 'O1'));
    expect(codes(noCapture)).toContain('purchaseCreditWithoutCapture');
  });

  it('given more MLX taken back than credited, when audited, then purchaseReturnExceedsCredit', () => {
    const { ledger } = soundLog();
    const refund = ledger.log.find((r) => r.type === 'PurchaseRefunded') as LedgerRecord;
    const extra = { ...refund, data: { ...data(refund), refundId: 'R2', usdCents: '600', mlxReturned: '600000', transferId: undefined } };
    expect(codes([...ledger.log, extra])).toEqual(expect.arrayContaining(['purchaseReturnExceedsCredit', 'purchaseReturnMismatch']));
  });

  it('given a refund transfer of another amount than recorded, when audited, then purchaseTransferMismatch', () => {
    const { ledger } = soundLog();
    const at = ledger.log.findIndex((r) => r.type === 'PurchaseRefunded');
    const refund = ledger.log[at] as LedgerRecord;
    const log = [...ledger.log];
    log[at] = { ...refund, data: { ...data(refund), mlxReturned: '1' } };
    expect(codes(log)).toContain('purchaseTransferMismatch');
  });

  it('given a purchase transfer that pays someone other than the buyer, when audited, then purchaseTransferMismatch', () => {
    const { ledger } = soundLog();
    const log = ledger.log.map((r) =>
      r.type === 'PurchaseOrdered' && data(r).orderId === 'O2' ? { ...r, data: { ...data(r), buyerUserId: SYSTEM_WALLET_IDS.network } } : r,
    );
    expect(codes(log)).toContain('purchaseTransferMismatch');
  });
});
