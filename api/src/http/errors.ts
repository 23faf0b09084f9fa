/**
 * The one place where domain error codes become HTTP statuses and tRPC codes, and where any
 * error becomes a body with a readable message. Unknown errors are logged and become a 500
 * without details; invalid input always becomes a 400 with field messages.
 */
import { AppError, type AppErrorCode } from '@quern/core';
import { errorText, type Language } from '@quern/core/i18n';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';

export const httpStatus: Record<AppErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  CONCURRENCY: 409,
  UNAVAILABLE: 503,
};

export const trpcCode = {
  VALIDATION: 'BAD_REQUEST',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  CONCURRENCY: 'CONFLICT',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<AppErrorCode, TRPCError['code']>;

/** Zod issues become field → message key; the first issue gives the general message. */
export function fromZodError(error: ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    const key = issue.message.startsWith('errors:') ? issue.message : 'errors:invalidRequest';
    fields[field] ??= key;
  }
  const first = Object.values(fields)[0] ?? 'errors:invalidRequest';
  return new AppError('VALIDATION', first, fields);
}

class InternalError extends AppError {
  constructor(readonly original: unknown) {
    super('UNAVAILABLE', 'errors:internal');
  }
}

/** Any thrown value as an AppError; `badInput` marks tRPC's own input-parsing failures. */
export function toAppError(error: unknown, badInput = false): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return fromZodError(error);
  if (error instanceof TRPCError) {
    if (error.cause) return toAppError(error.cause, badInput);
    if (badInput || error.code === 'BAD_REQUEST' || error.code === 'PARSE_ERROR')
      return new AppError('VALIDATION', 'errors:invalidRequest');
    if (error.code === 'NOT_FOUND') return new AppError('NOT_FOUND', 'errors:notFound');
  }
  return new InternalError(error);
}

export const isInternal = (error: AppError): error is InternalError => error instanceof InternalError;

export interface ErrorBody {
  code: AppErrorCode | 'INTERNAL';
  message: string;
  messageKey: string;
  /** Field → message key, for forms. */
  fields: Record<string, string>;
  /** Field → message text, for integrations that show server text as it is. */
  fieldMessages: Record<string, string>;
  params: Record<string, string | number>;
}

export function appErrorData(error: AppError, language: Language): ErrorBody {
  const fieldMessages = Object.fromEntries(Object.entries(error.fields).map(([f, key]) => [f, errorText(key, language, error.params)]));
  return {
    code: isInternal(error) ? 'INTERNAL' : error.code,
    message: errorText(error.messageKey, language, error.params),
    messageKey: error.messageKey,
    fields: error.fields,
    fieldMessages,
    params: error.params,
  };
}

export function statusOf(error: AppError): number {
  return isInternal(error) ? 500 : httpStatus[error.code];
}
