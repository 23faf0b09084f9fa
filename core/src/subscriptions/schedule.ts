/**
 * When a subscription is charged (ADR 037), in UTC. A period is one calendar month: the next
 * charge is one month after the charge that paid the period, on the subscription's billing day,
 * clamped to the month's last day (a 31st renews on Feb 28 or 29, then on Mar 31 again). A charge
 * that failed is retried 1, 3 and 5 days after it was due; the fourth failure cancels.
 */
export const DAY_MS = 86_400_000;
/** Days after the due time of each attempt: the first charge, then the three retries. */
export const CHARGE_ATTEMPT_OFFSETS_DAYS = [0, 1, 3, 5] as const;
export const CHARGE_ATTEMPTS_MAX = CHARGE_ATTEMPT_OFFSETS_DAYS.length;

const lastDayOfMonth = (year: number, monthIndex: number): number => new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();

/** `from` plus `months` calendar months, on `billingDay` (1–31) clamped to that month's length, same time of day. */
export function addMonthsOnBillingDay(from: Date, months: number, billingDay: number): Date {
  const monthIndex = from.getUTCMonth() + months;
  const year = from.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const day = Math.min(billingDay, lastDayOfMonth(year, month));
  return new Date(Date.UTC(year, month, day, from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()));
}

/** When attempt `attempt` (1-based) of a period due at `dueAt` runs. */
export function attemptDueAt(dueAt: Date, attempt: number): Date {
  const offset = CHARGE_ATTEMPT_OFFSETS_DAYS[attempt - 1];
  if (offset === undefined) throw new RangeError(`attempt ${attempt} is beyond ${CHARGE_ATTEMPTS_MAX}`);
  return new Date(dueAt.getTime() + offset * DAY_MS);
}

/**
 * The end of the period a charge paid. An on-time charge (attempt 1) counts from its due time, so
 * a job that ran a little late does not move the billing date; a late one (a retry) counts from
 * when it was made, and its day becomes the billing day.
 */
export function paidThroughAfter(charge: { attempt: number; dueAt: Date; chargedAt: Date; billingDay: number }): {
  paidThrough: Date;
  billingDay: number;
} {
  if (charge.attempt === 1)
    return { paidThrough: addMonthsOnBillingDay(charge.dueAt, 1, charge.billingDay), billingDay: charge.billingDay };
  const billingDay = charge.chargedAt.getUTCDate();
  return { paidThrough: addMonthsOnBillingDay(charge.chargedAt, 1, billingDay), billingDay };
}
