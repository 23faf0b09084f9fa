// Proves the merchant API's error body: its type follows from the status alone, its code is the
// refusal's stable name, its field is the first one the refusal names (never zod's `_`), its
// message is that field's own, and the request id travels as request_id.
import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../http/errors.js';
import { v1ErrorBody, v1ErrorCodeOf, v1ErrorTypeOf } from './errors.js';

const body = (overrides: Partial<ErrorBody> = {}): ErrorBody => ({
  code: 'VALIDATION',
  message: 'General message',
  messageKey: 'errors:invalidRequest',
  fields: {},
  fieldMessages: {},
  params: {},
  ...overrides,
});

describe('v1ErrorTypeOf', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [405, 'invalid_request_error'],
    [409, 'conflict_error'],
    [413, 'invalid_request_error'],
    [415, 'invalid_request_error'],
    [422, 'invalid_request_error'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [503, 'api_error'],
  ])('%i → %s', (status, type) => {
    expect(v1ErrorTypeOf(status)).toBe(type);
  });

  it('gives a 422 the idempotency type only for a reused Idempotency-Key: any other refusal of a well-formed request is an invalid request', () => {
    expect(v1ErrorTypeOf(422, 'idempotency_key_reused')).toBe('idempotency_error');
    expect(v1ErrorTypeOf(422, 'statement_month_in_future')).toBe('invalid_request_error');
    expect(v1ErrorTypeOf(422, 'events_replay_too_many')).toBe('invalid_request_error');
    expect(v1ErrorTypeOf(422, 'webhook_endpoints_limit')).toBe('invalid_request_error');
  });
});

describe('v1ErrorBody', () => {
  it('names the first field and gives its message', () => {
    const answer = v1ErrorBody(
      body({
        messageKey: 'errors:idempotencyKeyRequired',
        fields: { 'Idempotency-Key': 'errors:idempotencyKeyRequired', amount: 'errors:invalidRequest' },
        fieldMessages: { 'Idempotency-Key': 'Send an Idempotency-Key header.', amount: 'Not valid.' },
        requestId: 'req-1',
      }),
      400,
    );
    expect(answer).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'idempotency_key_required',
        message: 'Send an Idempotency-Key header.',
        field: 'Idempotency-Key',
      },
      request_id: 'req-1',
    });
  });

  it('leaves out field when the refusal is about the request as a whole', () => {
    const answer = v1ErrorBody(body({ fields: { _: 'errors:invalidRequest' }, fieldMessages: { _: 'Whole' } }), 400);
    expect(answer).toEqual({ error: { type: 'invalid_request_error', code: 'invalid_request', message: 'General message' } });
  });

  it('keeps the general message of a refusal without fields', () => {
    const answer = v1ErrorBody(body({ code: 'RATE_LIMITED', messageKey: 'errors:tooManyRequests', message: 'Slow down.' }), 429);
    expect(answer.error).toEqual({ type: 'rate_limit_error', code: 'too_many_requests', message: 'Slow down.' });
  });

  it('turns message keys into snake_case codes', () => {
    expect(v1ErrorCodeOf('errors:invalidApiKey')).toBe('invalid_api_key');
    expect(v1ErrorCodeOf('errors:notFound')).toBe('not_found');
    expect(v1ErrorCodeOf('errors:internal')).toBe('internal');
  });
});
