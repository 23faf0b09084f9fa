/**
 * A statement's month (`YYYY-MM`, UTC): its bounds, and whether it is closed. A month is closed
 * (its statement immutable, ADR 090) only once a grace period has passed after its end, so that a
 * movement stamped just before midnight by a process whose clock runs a little behind is already
 * in the log when the month is first answered as closed.
 */
import { AppError } from '../shared/errors.js';

export const STATEMENT_MONTH_PATTERN = /^([0-9]{4})-(0[1-9]|1[0-2])$/;
/** How long after a month ends its statement stays open: longer than any clock skew between processes. */
export const STATEMENT_CLOSING_GRACE_MS = 60 * 60 * 1000;
/** The first month a statement can be asked for: nothing in any Quern log is older. */
const FIRST_YEAR = 2000;

export interface StatementMonth {
  /** `YYYY-MM`. */
  month: string;
  /** Inclusive start, epoch milliseconds (UTC). */
  startMs: number;
  /** Exclusive end: the start of the next month. */
  endMs: number;
}

export type StatementStatus = 'open' | 'closed';

/** Reads `YYYY-MM`; undefined when malformed. */
export function parseStatementMonth(text: string): StatementMonth | undefined {
  const match = STATEMENT_MONTH_PATTERN.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const monthIndex = Number(match[2]) - 1;
  if (year < FIRST_YEAR) return undefined;
  return { month: text, startMs: Date.UTC(year, monthIndex, 1), endMs: Date.UTC(year, monthIndex + 1, 1) };
}

/**
 * The month as of `nowMs`: 'open' while it runs and during the grace after it, 'closed' after.
 * A month that has not started is refused (422): there is nothing to state yet.
 */
export function statementStatusOf(month: StatementMonth, nowMs: number): StatementStatus {
  if (nowMs < month.startMs)
    throw new AppError('UNPROCESSABLE', 'errors:statementMonthInFuture', { month: 'errors:statementMonthInFuture' });
  return nowMs >= month.endMs + STATEMENT_CLOSING_GRACE_MS ? 'closed' : 'open';
}

/** The month as a path parameter: malformed is a 400 naming the expected form. */
export function statementMonthOf(text: string): StatementMonth {
  const month = parseStatementMonth(text);
  if (!month) throw new AppError('VALIDATION', 'errors:statementMonthInvalid', { month: 'errors:statementMonthInvalid' });
  return month;
}
