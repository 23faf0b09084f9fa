/**
 * A statement's totals: per kind of movement, how many, their net amount and their fees; and over
 * all, what came in, what went out and the fees. Amounts are signed integers of MLX units (a
 * debit's amount is negative), so closing = opening + credits - debits - fees, which the verifier
 * checks too.
 */
export interface KindTotal {
  kind: string;
  count: number;
  /** Net signed amount, MLX units. */
  amount: string;
  fee: string;
}

export interface StatementTotals {
  credits: string;
  debits: string;
  fees: string;
  /** One entry per kind present, sorted by kind (so the signed bytes have one order). */
  by_kind: KindTotal[];
}

export function createTotals() {
  let credits = 0n;
  let debits = 0n;
  let fees = 0n;
  const byKind = new Map<string, { count: number; amount: bigint; fee: bigint }>();
  return {
    add(row: { kind: string; amount: string; fee: string }): void {
      const amount = BigInt(row.amount);
      const fee = BigInt(row.fee);
      if (amount >= 0n) credits += amount;
      else debits -= amount;
      fees += fee;
      const total = byKind.get(row.kind) ?? { count: 0, amount: 0n, fee: 0n };
      byKind.set(row.kind, { count: total.count + 1, amount: total.amount + amount, fee: total.fee + fee });
    },
    result(): StatementTotals {
      const kinds = [...byKind.keys()].sort();
      return {
        credits: credits.toString(),
        debits: debits.toString(),
        fees: fees.toString(),
        by_kind: kinds.map((kind) => {
          const total = byKind.get(kind)!;
          return { kind, count: total.count, amount: total.amount.toString(), fee: total.fee.toString() };
        }),
      };
    },
  };
}

/** The balance a movement leaves: the previous one plus its signed amount, minus its fee. */
export const balanceAfterMovement = (before: string, row: { amount: string; fee: string }): string =>
  (BigInt(before) + BigInt(row.amount) - BigInt(row.fee)).toString();

/** The totals as the signed message lists them: credits, debits, fees, then kind, count, amount, fee for each kind. */
export const totalsValues = (totals: StatementTotals): string[] => [
  totals.credits,
  totals.debits,
  totals.fees,
  ...totals.by_kind.flatMap((kind) => [kind.kind, String(kind.count), kind.amount, kind.fee]),
];
