/**
 * A refused save. The spec logs profile save errors only; the page also shows the server's
 * message, because a refused phone (taken) or password (wrong current one) that silently did
 * nothing would leave the user guessing (ADR 038).
 */
import { toAppErrorView } from '../../app/appError.js';
import { singleMessageFromServer, type MessageRef } from '../../ui/formErrors.js';

export function saveErrorMessage(error: unknown): MessageRef {
  console.error('[profile] save failed', error);
  return singleMessageFromServer(toAppErrorView(error));
}
