/**
 * The merchant API's OpenAPI 3.1 document, generated from the route table (route.ts) by
 * zod-openapi (ADR 036): the schemas that validate a request and describe its answer are the ones
 * written here, so the reference cannot say something the API does not do. Every operation is
 * behind the bearer key, names the common error answers (v1/errors.ts), and a money-moving write
 * names its Idempotency-Key header.
 */
import { IDEMPOTENCY_KEY_PATTERN } from '@quern/core/wallet';
import { type ZodType, z } from 'zod';
import {
  type CreateDocumentOptions,
  createDocument,
  type oas31,
  type ZodObjectInput,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { v1ErrorSchema } from './errors.js';
import { livemodeSchema } from './livemode.js';
import { V1_BASE } from './router.js';
import type { V1Route } from './route.js';

export const OPENAPI_PATH = `${V1_BASE}/openapi.json`;

export interface OpenApiOptions {
  /** PUBLIC_URL without a trailing slash; unset, the server is relative to the document. */
  publicUrl?: string;
}

/**
 * The contract's version (info.version): 1.x while the paths stay under /api/v1. Adding an
 * operation or an optional field raises the minor; a change an integration could break on would
 * be /api/v2.
 */
export const V1_CONTRACT_VERSION = '1.0.0';

const BEARER = 'bearerAuth';

const idempotencyKeyHeader = z.strictObject({
  'Idempotency-Key': z.string().regex(IDEMPOTENCY_KEY_PATTERN).meta({
    description:
      'Your unique key for this write (printable ASCII, at most 255 characters). A retry with the same key and body answers the first result and moves nothing again; the same key with another body is refused with 422.',
    example: 'refund-8c1f2e',
  }),
});

const errorResponse = (id: string, description: string, extra: Partial<ZodOpenApiResponseObject> = {}): ZodOpenApiResponseObject => ({
  id,
  description,
  content: { 'application/json': { schema: v1ErrorSchema } },
  ...extra,
});

/** The common failures, registered once as components and referenced by each operation. */
const errors = {
  badRequest: errorResponse('BadRequest', 'The request is malformed: `error.field` names the parameter, field or header.'),
  unauthorized: errorResponse('Unauthorized', 'No valid API key in `Authorization: Bearer`.', {
    headers: z.object({ 'WWW-Authenticate': z.string().meta({ example: 'Bearer realm="quern"' }) }),
  }),
  notFound: errorResponse('NotFound', 'Nothing of yours has this id (another merchant’s answers the same).'),
  unprocessable: errorResponse('IdempotencyMismatch', 'The Idempotency-Key was already used with another request.'),
  rateLimited: errorResponse('RateLimited', 'The key made too many requests this minute.', {
    headers: z.object({
      'Retry-After': z.string().regex(/^\d+$/).meta({ description: 'Seconds to wait before the next request.', example: '12' }),
    }),
  }),
  unavailable: errorResponse('Unavailable', 'Quern could not answer now; retry later (with the same Idempotency-Key for a write).'),
};

function successResponse(route: V1Route): ZodOpenApiResponseObject {
  if (route.kind === 'stream')
    return { description: route.responseDescription, content: { [route.produces]: { schema: { type: 'string' } } } };
  // The router adds `livemode` to every answer (livemode.ts); the reference says so.
  return { description: route.summary, content: { 'application/json': { schema: livemodeSchema(route.response) } } };
}

function responsesOf(route: V1Route): ZodOpenApiResponsesObject {
  const status = route.kind === 'json' ? (route.status ?? 200) : 200;
  return {
    [status]: successResponse(route),
    400: errors.badRequest,
    401: errors.unauthorized,
    // Any id in the path may name nothing of the merchant's.
    ...(route.params === undefined ? {} : { 404: errors.notFound }),
    ...(route.idempotencyKey === 'required' ? { 422: errors.unprocessable } : {}),
    429: errors.rateLimited,
    503: errors.unavailable,
  };
}

/**
 * Path parameters and query arrive as string records (router.ts parses `{ ...req.params }` and
 * `{ ...req.query }`), so their schemas take objects; route.ts types their input as unknown only
 * because a table holds every route's types. zod-openapi rejects a schema that is not an object.
 */
const asObjectInput = (schema: ZodType | undefined) => schema as ZodObjectInput | undefined;

function operationOf(route: V1Route): ZodOpenApiOperationObject {
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: [route.tag],
    requestParams: {
      ...(route.params === undefined ? {} : { path: asObjectInput(route.params) }),
      ...(route.query === undefined ? {} : { query: asObjectInput(route.query) }),
      ...(route.idempotencyKey === 'required' ? { header: idempotencyKeyHeader } : {}),
    },
    // The router reads a body on writes only (router.ts); a GET's declared body would be ignored.
    ...(route.body === undefined || route.method === 'get' || route.method === 'delete'
      ? {}
      : { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } }),
    responses: responsesOf(route),
  };
}

/** Fails at start-up, not at a caller's request, when two entries claim one operation. */
function assertUnique(table: readonly V1Route[]): void {
  const seen = new Set<string>();
  for (const route of table) {
    for (const key of [`operationId ${route.operationId}`, `${route.method.toUpperCase()} ${route.path}`]) {
      if (seen.has(key)) throw new Error(`The /api/v1 route table declares ${key} twice`);
      seen.add(key);
    }
  }
}

/**
 * zod-openapi closes every answer's object (`additionalProperties: false`) unless told otherwise;
 * Quern adds optional fields to answers without a new version (like Stripe), so an answer is
 * closed only when its schema is a strictObject. A client that validates answers strictly would
 * otherwise break on the first added field.
 */
const openAnswers: CreateDocumentOptions['override'] = ({ jsonSchema, zodSchema, io }) => {
  if (io !== 'output' || zodSchema._zod.def.type !== 'object' || jsonSchema.additionalProperties !== false) return;
  const catchall = (zodSchema._zod.def as { catchall?: { _zod: { def: { type: string } } } }).catchall;
  if (catchall?._zod.def.type !== 'never') delete jsonSchema.additionalProperties;
};

const DESCRIPTION = [
  "Quern's merchant API: verify checkout payments, list payments, export them, read the balance, pay out, refund, and manage webhook endpoints.",
  'Authenticate every request with the API key from API Direct: `Authorization: Bearer qk_live_…` on a live Quern, `qk_test_…` on a sandbox. A live Quern refuses a sandbox key (401 `sandbox_key_on_live`). Amounts are whole MLX as decimal strings.',
  'Every object carries `livemode`: `false` from a sandbox (test money only), `true` from a live Quern; so does every webhook payload.',
  'Every failure answers `{ "error": { "type", "code", "message", "field"? }, "request_id" }`; messages follow Accept-Language (en, es).',
].join('\n\n');

export function v1OpenApiDocument(table: readonly V1Route[], options: OpenApiOptions): oas31.OpenAPIObject {
  assertUnique(table);
  const paths: ZodOpenApiPathsObject = {};
  for (const route of table) {
    paths[route.path] = { ...paths[route.path], [route.method]: operationOf(route) };
  }
  const tags = [...new Set(table.map((route) => route.tag))].map((name) => ({ name }));
  return createDocument(
    {
      openapi: '3.1.0',
      info: { title: 'Quern merchant API', version: V1_CONTRACT_VERSION, description: DESCRIPTION },
      servers: [{ url: `${options.publicUrl ?? ''}${V1_BASE}` }],
      security: [{ [BEARER]: [] }],
      tags,
      paths,
      components: {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            description: 'The API key from API Direct: `qk_live_…` on a live Quern, `qk_test_…` on a sandbox.',
          },
        },
      },
    },
    { override: openAnswers },
  ) as oas31.OpenAPIObject;
}
