/** Helpers for core's unit tests (not exported from the package). */
import { AppError } from '../src/shared/errors.js';

/** The AppError a call is refused with; returning, or throwing anything else, fails the test. */
export function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal (an AppError)');
}

/** What a refusal says, for one toEqual. */
export const refusalSummary = (error: AppError) => ({ code: error.code, messageKey: error.messageKey, fields: error.fields });
