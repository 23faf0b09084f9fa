/**
 * Domain errors. A rule that fails throws an AppError with a code; the api maps codes to HTTP
 * statuses and tRPC codes in one place (api/src/http/errors.ts). `messageKey` names the
 * i18n resource ("namespace:key") the user sees; `fields` maps form fields to message keys.
 */
export type AppErrorCode =
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  /** Well-formed but not acceptable as it stands (422): an Idempotency-Key reused with another request, a month not started, a range too large. */
  | 'UNPROCESSABLE'
  | 'RATE_LIMITED'
  /**
   * The session's last proof of the password is too old for this call (step-up, ADR 045): the
   * caller asks for the password again (identity.reauthenticate) and retries (403).
   */
  | 'REAUTHENTICATION_REQUIRED'
  | 'CONCURRENCY'
  | 'UNAVAILABLE';

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    readonly messageKey: string,
    readonly fields: Record<string, string> = {},
    readonly params: Record<string, string | number> = {},
  ) {
    super(messageKey);
    this.name = 'AppError';
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/**
 * An AppError that also names, as data, the rule that refused (`reason`). Callers that branch on
 * a refusal (a job that ends quietly on one, the web app that shows success on another) read the
 * reason, never the message key: the key is the text people see and may be reworded.
 */
export class RefusalError<Reason extends string = string> extends AppError {
  constructor(
    readonly reason: Reason,
    code: AppErrorCode,
    messageKey: string,
    fields: Record<string, string> = {},
    params: Record<string, string | number> = {},
  ) {
    super(code, messageKey, fields, params);
  }
}

/** True when `error` is a refusal for `reason` (a typed branch; the message key is not compared). */
export const isRefusal = <Reason extends string>(error: unknown, reason: Reason): error is RefusalError<Reason> =>
  error instanceof RefusalError && error.reason === reason;
