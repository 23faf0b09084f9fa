/**
 * The merchant API's routes (/api/v1) are declared as data: one V1Route per operation, with the
 * zod schemas that validate its path parameters, query and body and describe its answer. The
 * router (router.ts) mounts them behind the bearer key, and the OpenAPI document is generated
 * from the same declarations, so the reference cannot drift from what the API accepts.
 */
import type { Response } from 'express';
import type { ZodType } from 'zod';
import type { Merchant } from '../merchant-keys/service.js';
import type { RequestContext } from '../http/context.js';

export type V1Method = 'get' | 'post' | 'delete';

/** What a handler gets: the parsed inputs, the authenticated merchant and the exchange. */
export interface V1Call<P, Q, B> {
  ctx: RequestContext;
  merchant: Merchant;
  params: P;
  query: Q;
  body: B;
  /** The Idempotency-Key header, present (and well-formed) when the route requires one. */
  idempotencyKey: string | undefined;
  res: Response;
}

interface V1RouteBase<P, Q, B> {
  method: V1Method;
  /** OpenAPI style, below /api/v1: `/payments/{order}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /** Money-moving writes require an Idempotency-Key header. */
  idempotencyKey?: 'required';
}

/** A JSON operation: the handler's result is validated by nothing but typed by `response`. */
export interface V1JsonRoute<P, Q, B, O> extends V1RouteBase<P, Q, B> {
  kind: 'json';
  /** HTTP status of success; 200 unless said. */
  status?: 200 | 201;
  response: ZodType<O>;
  run(call: V1Call<P, Q, B>): Promise<O>;
}

/** An operation that writes its own answer (a CSV stream): `produces` names the content type. */
export interface V1StreamRoute<P, Q, B> extends V1RouteBase<P, Q, B> {
  kind: 'stream';
  produces: string;
  responseDescription: string;
  run(call: V1Call<P, Q, B>): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: a route table holds routes of every input and output type.
export type V1Route = V1JsonRoute<any, any, any, any> | V1StreamRoute<any, any, any>;

/** Typed constructors, so a table entry's handler sees its own schemas' types. */
export const jsonRoute = <P = undefined, Q = undefined, B = undefined, O = unknown>(route: V1JsonRoute<P, Q, B, O>): V1Route => route;
export const streamRoute = <P = undefined, Q = undefined, B = undefined>(route: V1StreamRoute<P, Q, B>): V1Route => route;
