// Proves the one error table: each domain code's HTTP status is the status tRPC gives its tRPC
// code, and any thrown value (AppError, ZodError, TRPCError, a body-parser error, anything else)
// becomes the right AppError, status and tRPC code, with unknown fields named and the original
// kept for the log only.
import { AppError, type AppErrorCode } from '@quern/core';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  appErrorData,
  httpStatus,
  isInternal,
  originalOf,
  retryAfterSeconds,
  statusOf,
  toAppError,
  trpcCode,
  trpcCodeOf,
} from './errors.js';

const codes = Object.keys(httpStatus) as AppErrorCode[];

describe('the error table', () => {
  it.each(codes)('given %s, when mapped, then its HTTP status is the one tRPC gives its tRPC code', (code) => {
    const error = new AppError(code, 'errors:invalidRequest');
    expect(statusOf(error)).toBe(httpStatus[code]);
    expect(getHTTPStatusCodeFromError(new TRPCError({ code: trpcCodeOf(error) }))).toBe(statusOf(error));
    expect(trpcCodeOf(error)).toBe(trpcCode[code]);
  });
});

describe('toAppError', () => {
  it('given an AppError thrown in a procedure (wrapped by tRPC), when mapped, then the AppError itself', () => {
    const appError = new AppError('CONFLICT', 'errors:usernameTaken');
    expect(toAppError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: appError }))).toBe(appError);
  });

  it('given a ZodError with an unknown key, when mapped, then VALIDATION naming each field and the unknown one', () => {
    const result = z.strictObject({ email: z.string({ error: 'errors:emailRequired' }) }).safeParse({ email: 5, extra: 1 });
    const error = toAppError(new TRPCError({ code: 'BAD_REQUEST', cause: result.error }));
    expect([error.code, error.fields]).toEqual(['VALIDATION', { email: 'errors:emailRequired', extra: 'errors:unknownField' }]);
    expect(statusOf(error)).toBe(400);
  });

  it.each([
    [new TRPCError({ code: 'PARSE_ERROR' }), 400, 'errors:invalidJson', 'BAD_REQUEST'],
    [new TRPCError({ code: 'BAD_REQUEST', cause: new SyntaxError('Unexpected end') }), 400, 'errors:invalidJson', 'BAD_REQUEST'],
    [new TRPCError({ code: 'METHOD_NOT_SUPPORTED' }), 405, 'errors:methodNotAllowed', 'METHOD_NOT_SUPPORTED'],
    [new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE' }), 415, 'errors:unsupportedContentType', 'UNSUPPORTED_MEDIA_TYPE'],
    [new TRPCError({ code: 'PAYLOAD_TOO_LARGE' }), 413, 'errors:requestTooLarge', 'PAYLOAD_TOO_LARGE'],
    [new TRPCError({ code: 'NOT_FOUND' }), 404, 'errors:notFound', 'NOT_FOUND'],
    [
      Object.assign(new SyntaxError('Unexpected token'), { status: 400, expose: true, type: 'entity.parse.failed' }),
      400,
      'errors:invalidJson',
      'BAD_REQUEST',
    ],
    [
      Object.assign(new Error('request entity too large'), { status: 413, expose: true }),
      413,
      'errors:requestTooLarge',
      'PAYLOAD_TOO_LARGE',
    ],
  ])('given a refusal of the request itself (%s), when mapped, then its own status and message', (thrown, status, messageKey, code) => {
    const error = toAppError(thrown);
    expect([statusOf(error), error.messageKey, trpcCodeOf(error), isInternal(error)]).toEqual([status, messageKey, code, false]);
  });

  it.each([
    [new Error('disk on fire')],
    [new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: new RangeError('Maximum call stack size exceeded') })],
    ['a thrown string'],
    [Object.assign(new Error('upstream'), { status: 502, expose: false })],
    [Object.assign(new Error('not exposed'), { status: 400, expose: false })],
  ])('given an unexpected error (%s), when mapped, then internal: 500, errors:internal, nothing of the original', (thrown) => {
    const error = toAppError(thrown);
    expect([isInternal(error), statusOf(error), trpcCodeOf(error)]).toEqual([true, 500, 'INTERNAL_SERVER_ERROR']);
    const body = appErrorData(error, 'en', 'req-1');
    expect(body).toEqual({
      code: 'INTERNAL',
      message: 'Something went wrong. Please try again.',
      messageKey: 'errors:internal',
      fields: {},
      fieldMessages: {},
      params: {},
      requestId: 'req-1',
    });
    expect(originalOf(error)).toBeDefined();
  });
});

describe('retryAfterSeconds', () => {
  it('given a rate limit, when asked, then its seconds, its minutes in seconds, or one second; other errors none', () => {
    expect(retryAfterSeconds(new AppError('RATE_LIMITED', 'errors:tooManyAttempts', {}, { minutes: 15 }))).toBe(900);
    expect(retryAfterSeconds(new AppError('RATE_LIMITED', 'errors:busy', {}, { retryAfterSeconds: 3 }))).toBe(3);
    expect(retryAfterSeconds(new AppError('RATE_LIMITED', 'errors:tooManyPendingTransfers'))).toBe(1);
    expect(retryAfterSeconds(new AppError('RATE_LIMITED', 'errors:tooManyAttempts', {}, { minutes: -1 }))).toBe(1);
    expect(retryAfterSeconds(new AppError('CONFLICT', 'errors:usernameTaken', {}, { minutes: 15 }))).toBeUndefined();
  });
});
