/**
 * Reads the server's error body (tRPC `error.data.appError`) into what a form shows: a general
 * message and per-field messages, each an i18n key with the server's English text as fallback.
 */
import { TRPCClientError } from '@trpc/client';

export interface AppErrorView {
  /** The server's error code (VALIDATION, CONFLICT, ...) or null when the server did not answer. */
  code: string | null;
  messageKey: string;
  /** The server's own text for messageKey, shown when this app has no translation for it. */
  message: string;
  params: Record<string, string | number>;
  /** Form field name -> i18n message key. */
  fields: Record<string, string>;
  /** Which rule refused, as data (the server's RefusalError reason), for code that branches on it. */
  reason?: string;
}

/** What the user sees when the server gave no usable message (network failure, crash). */
export const fallbackErrorKey = 'errors:internal';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const stringRecord = (value: unknown): Record<string, string> =>
  isRecord(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};

const paramRecord = (value: unknown): Record<string, string | number> =>
  isRecord(value)
    ? Object.fromEntries(
        Object.entries(value).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number'),
      )
    : {};

export function toAppErrorView(error: unknown): AppErrorView {
  const data: unknown = error instanceof TRPCClientError ? error.data : undefined;
  const appError = isRecord(data) ? data.appError : undefined;
  if (isRecord(appError) && typeof appError.messageKey === 'string') {
    return {
      code: typeof appError.code === 'string' ? appError.code : null,
      messageKey: appError.messageKey,
      message: typeof appError.message === 'string' ? appError.message : '',
      params: paramRecord(appError.params),
      fields: stringRecord(appError.fields),
      ...(typeof appError.reason === 'string' ? { reason: appError.reason } : {}),
    };
  }
  // No app error (network failure, a proxy's 502 page): only the generic message is honest.
  return { code: null, messageKey: fallbackErrorKey, message: '', params: {}, fields: {} };
}

/** True when the server refused a call because the session is missing or has expired. */
export function isUnauthenticated(error: unknown): boolean {
  if (!(error instanceof TRPCClientError) || !isRecord(error.data)) return false;
  return error.data.code === 'UNAUTHORIZED' || toAppErrorView(error).code === 'UNAUTHENTICATED';
}
