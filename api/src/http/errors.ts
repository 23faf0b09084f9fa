/**
 * The one place where domain error codes become HTTP statuses and tRPC codes, and where any
 * error becomes a body with a readable message. REST (rest.ts) and tRPC (trpc/init.ts) both
 * answer through statusOf / trpcCodeOf / appErrorData, so one error answers the same on both.
 * Unknown errors become a 500 without details; invalid input always becomes a 4xx with a message.
 */
import { AppError, type AppErrorCode, RefusalError } from '@quern/core';
import { errorText, type Language } from '@quern/core/i18n';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';

type TrpcCode = TRPCError['code'];

export const httpStatus: Record<AppErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  REAUTHENTICATION_REQUIRED: 403,
  CONCURRENCY: 409,
  UNAVAILABLE: 503,
};

export const trpcCode = {
  VALIDATION: 'BAD_REQUEST',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  UNPROCESSABLE: 'UNPROCESSABLE_CONTENT',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  REAUTHENTICATION_REQUIRED: 'FORBIDDEN',
  CONCURRENCY: 'CONFLICT',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<AppErrorCode, TrpcCode>;

/**
 * Zod issues become field → message key; the first issue gives the general message. Inputs are
 * strict objects, so a field the call does not know is named as its own field error.
 */
export function fromZodError(error: ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[[...issue.path, key].join('.')] ??= 'errors:unknownField';
      continue;
    }
    const field = issue.path.join('.') || '_';
    const key = issue.message.startsWith('errors:') ? issue.message : 'errors:invalidRequest';
    fields[field] ??= key;
  }
  const first = Object.values(fields)[0] ?? 'errors:invalidRequest';
  return new AppError('VALIDATION', first, fields);
}

/**
 * A request refused for its framing rather than its fields (not JSON, too large, nested too
 * deep, wrong method): a VALIDATION error that keeps the HTTP status the protocol gives it.
 */
export class RequestRefused extends AppError {
  constructor(
    readonly status: number,
    messageKey: string,
    fields: Record<string, string> = {},
    params: Record<string, string | number> = {},
  ) {
    super('VALIDATION', messageKey, fields, params);
  }
}

/** The tRPC codes of the framing statuses; any other 4xx reads as BAD_REQUEST. */
const trpcCodeOfStatus: Record<number, TrpcCode> = {
  405: 'METHOD_NOT_SUPPORTED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** The message each framing status shows; any other 4xx is just "not valid". */
const messageKeyOfStatus: Record<number, string> = {
  405: 'errors:methodNotAllowed',
  413: 'errors:requestTooLarge',
  415: 'errors:unsupportedContentType',
};

export const requestRefused = (status: number, fields: Record<string, string> = {}, params: Record<string, string | number> = {}) =>
  new RequestRefused(status, messageKeyOfStatus[status] ?? 'errors:invalidRequest', fields, params);

/** Anything unexpected: the client learns nothing about it, the log learns everything. */
class InternalError extends AppError {
  constructor(readonly original: unknown) {
    super('UNAVAILABLE', 'errors:internal');
  }
}

export const isInternal = (error: AppError): error is InternalError => error instanceof InternalError;

/** The thrown value behind an internal error, for the log. */
export const originalOf = (error: AppError): unknown => (isInternal(error) ? error.original : error);

/** body-parser and Express mark the client's mistakes (bad JSON, too large) with an exposed 4xx. */
function clientHttpStatusOf(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && expose === true ? status : undefined;
}

/** A body-parser 400 means the body was not JSON; its message says so, not which byte. */
const parserRefusal = (error: Error, status: number): AppError =>
  status === 400 && (error as { type?: unknown }).type === 'entity.parse.failed'
    ? new RequestRefused(400, 'errors:invalidJson')
    : requestRefused(status);

function fromTrpcError(error: TRPCError): AppError {
  const cause = error.cause;
  if (cause instanceof AppError || cause instanceof ZodError) return toAppError(cause);
  if (error.code === 'NOT_FOUND') return new AppError('NOT_FOUND', 'errors:notFound');
  // tRPC's own GET input is JSON.parse'd by tRPC; a SyntaxError there is the client's bad JSON.
  if (error.code === 'PARSE_ERROR' || (error.code === 'BAD_REQUEST' && cause instanceof SyntaxError))
    return new RequestRefused(400, 'errors:invalidJson');
  const status = getHTTPStatusCodeFromError(error);
  if (status >= 400 && status < 500) return requestRefused(status);
  return new InternalError(cause ?? error);
}

/** Any thrown value as an AppError. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return fromZodError(error);
  if (error instanceof TRPCError) return fromTrpcError(error);
  // The router's decoding of a path parameter with broken percent-encoding (`%ff`, `%`): the
  // client's malformed address, never the server's fault.
  if (error instanceof URIError) return new RequestRefused(400, 'errors:malformedUrl');
  const clientStatus = clientHttpStatusOf(error);
  if (clientStatus !== undefined) return parserRefusal(error as Error, clientStatus);
  return new InternalError(error);
}

export function statusOf(error: AppError): number {
  if (error instanceof RequestRefused) return error.status;
  return isInternal(error) ? 500 : httpStatus[error.code];
}

export function trpcCodeOf(error: AppError): TrpcCode {
  if (error instanceof RequestRefused) return trpcCodeOfStatus[error.status] ?? 'BAD_REQUEST';
  return isInternal(error) ? 'INTERNAL_SERVER_ERROR' : trpcCode[error.code];
}

/**
 * Seconds a rate-limited caller should wait: the refusal's own `retryAfterSeconds` (back-pressure)
 * or `minutes` (sign-in and form limits), else one second, so every 429 says when to come back.
 */
export function retryAfterSeconds(error: AppError): number | undefined {
  if (error.code !== 'RATE_LIMITED') return undefined;
  const positive = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
  const { retryAfterSeconds: seconds, minutes } = error.params;
  if (positive(seconds)) return seconds;
  return positive(minutes) ? minutes * 60 : 1;
}

export interface ErrorBody {
  code: AppErrorCode | 'INTERNAL';
  message: string;
  messageKey: string;
  /** Field → message key, for forms. */
  fields: Record<string, string>;
  /** Field → message text, for integrations that show server text as it is. */
  fieldMessages: Record<string, string>;
  params: Record<string, string | number>;
  /** The request's id (also in the X-Request-Id header): what a user quotes to support. */
  requestId?: string;
  /** Which rule refused, as data (RefusalError): what a client branches on instead of the message key. */
  reason?: string;
}

export function appErrorData(error: AppError, language: Language, requestId?: string): ErrorBody {
  const fieldMessages = Object.fromEntries(Object.entries(error.fields).map(([f, key]) => [f, errorText(key, language, error.params)]));
  return {
    code: isInternal(error) ? 'INTERNAL' : error.code,
    message: errorText(error.messageKey, language, error.params),
    messageKey: error.messageKey,
    fields: error.fields,
    fieldMessages,
    params: error.params,
    ...(requestId === undefined ? {} : { requestId }),
    ...(error instanceof RefusalError ? { reason: error.reason } : {}),
  };
}

/**
 * The tRPC error envelope for a /trpc call refused before tRPC ran (body type, size or depth,
 * CSRF): the web client then reads error.data.appError as it does for any procedure's error.
 */
export function trpcErrorEnvelope(error: AppError, body: ErrorBody) {
  const code = trpcCodeOf(error);
  return {
    error: { message: body.message, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus: statusOf(error), appError: body } },
  };
}
