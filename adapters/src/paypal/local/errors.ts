/**
 * Error bodies in PayPal's REST shape (developer.paypal.com/api/rest/reference/orders/v2/errors/):
 * `{ name, message, debug_id, details: [{ field, value, location, issue, description }], links }`,
 * with the debug id also in the `Paypal-Debug-Id` header, as PayPal sends it.
 */
import type { Response } from 'express';
import { debugId } from './ids.js';

export interface PayPalErrorDetail {
  field?: string;
  value?: string;
  location?: 'body' | 'path' | 'query' | 'header';
  issue: string;
  description: string;
}

const MESSAGES: Record<string, string> = {
  INVALID_REQUEST: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  RESOURCE_NOT_FOUND: 'The specified resource does not exist.',
  UNPROCESSABLE_ENTITY: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
  AUTHENTICATION_FAILURE: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
  NOT_AUTHORIZED: 'Authorization failed due to insufficient permissions.',
  INTERNAL_SERVER_ERROR: 'An internal server error has occurred.',
};

const STATUS: Record<string, number> = {
  INVALID_REQUEST: 400,
  AUTHENTICATION_FAILURE: 401,
  NOT_AUTHORIZED: 403,
  RESOURCE_NOT_FOUND: 404,
  UNPROCESSABLE_ENTITY: 422,
  INTERNAL_SERVER_ERROR: 500,
};

/** Thrown by handlers and the state; the router's error handler writes it. */
export class PayPalProtocolError extends Error {
  readonly status: number;
  constructor(
    readonly errorName: keyof typeof STATUS,
    readonly details: PayPalErrorDetail[] = [],
  ) {
    super(details[0]?.description ?? MESSAGES[errorName]);
    this.status = STATUS[errorName] ?? 500;
  }
}

export function invalidRequest(detail: PayPalErrorDetail): PayPalProtocolError {
  return new PayPalProtocolError('INVALID_REQUEST', [{ location: 'body', ...detail }]);
}

export function unprocessable(issue: string, description: string, field?: string): PayPalProtocolError {
  return new PayPalProtocolError('UNPROCESSABLE_ENTITY', [{ ...(field ? { field, location: 'body' as const } : {}), issue, description }]);
}

export function notFound(issue: string, description: string, field?: string): PayPalProtocolError {
  return new PayPalProtocolError('RESOURCE_NOT_FOUND', [{ ...(field ? { field, location: 'path' as const } : {}), issue, description }]);
}

export function sendPayPalError(res: Response, error: PayPalProtocolError): void {
  const id = debugId();
  const body: Record<string, unknown> = {
    name: error.errorName,
    message: MESSAGES[error.errorName] ?? error.message,
    debug_id: id,
  };
  if (error.details.length > 0) body.details = error.details;
  const issue = error.details[0]?.issue;
  body.links = [
    {
      href: issue
        ? `https://developer.paypal.com/api/rest/reference/orders/v2/errors/#${issue.toLowerCase()}`
        : 'https://developer.paypal.com/api/rest/responses/#link-errors',
      rel: 'information_link',
      method: 'GET',
    },
  ];
  res.status(error.status).set('Paypal-Debug-Id', id).json(body);
}

/** OAuth's own shape, which the token endpoint uses instead of the one above. */
export function sendInvalidClient(res: Response): void {
  res.status(401).set('Paypal-Debug-Id', debugId()).json({ error: 'invalid_client', error_description: 'Client Authentication failed' });
}
