/**
 * The merchant API's one error shape (ADR 036), after Stripe's: every failure under /api/v1,
 * whichever route, middleware or parser refused it, answers
 * `{ "error": { "type", "code", "message", "field"? }, "request_id" }`. The type follows from the
 * HTTP status alone, so an integration can branch on it without knowing Quern's codes; `code` is
 * the stable name of the particular refusal; `message` is in the caller's language. The same zod
 * schema describes the body in the OpenAPI document (openapi.ts).
 */
import { z } from 'zod';
import type { ErrorBody } from '../http/errors.js';

export const v1ErrorTypes = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found_error',
  'conflict_error',
  'idempotency_error',
  'rate_limit_error',
  'api_error',
] as const;

export type V1ErrorType = (typeof v1ErrorTypes)[number];

/**
 * Statuses with a type of their own; any other 4xx (400, 405, 413, 415) is a malformed request
 * and any 5xx is Quern's fault. 422 (UNPROCESSABLE: well-formed, not acceptable as it stands) is
 * an idempotency error only for an Idempotency-Key reused with another request; every other 422
 * (a month not started, too many endpoints, a range too large) is an invalid request.
 */
const typeOfStatus: Readonly<Record<number, V1ErrorType>> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  422: 'idempotency_error',
  429: 'rate_limit_error',
};

const IDEMPOTENCY_KEY_REUSED = 'idempotency_key_reused';

export function v1ErrorTypeOf(status: number, code?: string): V1ErrorType {
  if (status >= 500) return 'api_error';
  if (status === 422 && code !== IDEMPOTENCY_KEY_REUSED) return 'invalid_request_error';
  return typeOfStatus[status] ?? 'invalid_request_error';
}

/** `errors:idempotencyKeyRequired` → `idempotency_key_required`: the refusal's name, without i18n. */
export const v1ErrorCodeOf = (messageKey: string): string =>
  messageKey
    .replace(/^errors:/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .toLowerCase();

export const v1ErrorSchema = z
  .object({
    error: z.object({
      type: z.enum(v1ErrorTypes).meta({
        description:
          'The kind of failure; it follows from the HTTP status (a 422 is `idempotency_error` only for a reused Idempotency-Key).',
      }),
      code: z
        .string()
        .meta({ description: 'The particular refusal, stable across releases (e.g. `invalid_api_key`).', example: 'invalid_request' }),
      message: z.string().meta({ description: "What went wrong, in the caller's language (Accept-Language: en or es)." }),
      field: z.string().optional().meta({
        description: 'The parameter, field or header the message is about, when there is one (e.g. `token`, `Idempotency-Key`).',
      }),
    }),
    request_id: z.string().optional().meta({ description: 'The request id, also in the X-Request-Id header: quote it to support.' }),
  })
  .meta({ id: 'Error', description: 'Every failure of the merchant API answers this body.' });

export type V1ErrorBody = z.infer<typeof v1ErrorSchema>;

/** The first field a refusal names (zod's `_` stands for the input as a whole, not a field). */
const firstField = (fields: Record<string, string>): string | undefined => Object.keys(fields).find((field) => field !== '_');

export function v1ErrorBody(body: ErrorBody, status: number): V1ErrorBody {
  const field = firstField(body.fields);
  const code = v1ErrorCodeOf(body.messageKey);
  return {
    error: {
      type: v1ErrorTypeOf(status, code),
      code,
      // The field's own message says what is wrong with it; the general one may be about another field.
      message: (field === undefined ? undefined : body.fieldMessages[field]) ?? body.message,
      ...(field === undefined ? {} : { field }),
    },
    ...(body.requestId === undefined ? {} : { request_id: body.requestId }),
  };
}
