/**
 * What a form shows after a failed submit: one message for the form (above the submit button)
 * and per-field messages. Messages are i18n keys ("errors:allFieldsRequired").
 */
import type { AppErrorView } from '../app/appError.js';

export interface MessageRef {
  key: string;
  params?: Record<string, string | number>;
  /** Text to show when this app has no translation for `key` (the server's own message). */
  fallback?: string;
}

export interface FormErrors<F extends string> {
  form: MessageRef | null;
  /** A field's own message key, or null when the field is invalid and `form` explains why. */
  fields: Partial<Record<F, string | null>>;
}

export const noErrors = { form: null, fields: {} } as const satisfies FormErrors<never>;

/** Keeps the first message zod gives for each field (the later ones repeat the problem). */
export function firstIssuePerField<F extends string>(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  fields: readonly F[],
): Partial<Record<F, string>> {
  const messages: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (fields as readonly string[]).includes(field) && !(field in messages)) {
      messages[field as F] = issue.message;
    }
  }
  return messages;
}

/**
 * A server error as form errors. The general message is left out when it repeats a field's
 * message (a 409 "username taken" names the field), so the text is not shown twice.
 */
export function formErrorsFromServer<F extends string>(error: AppErrorView, fields: readonly F[]): FormErrors<F> {
  const fieldMessages: Partial<Record<F, string>> = {};
  for (const [field, key] of Object.entries(error.fields)) {
    if ((fields as readonly string[]).includes(field)) fieldMessages[field as F] = key;
  }
  const repeated = Object.values(fieldMessages).includes(error.messageKey);
  const form = repeated ? null : { key: error.messageKey, params: error.params, fallback: error.message || undefined };
  return { form, fields: fieldMessages };
}

/**
 * For forms with one message slot (sign-in, password reset): the message of a field the server
 * named, else its general message.
 */
export function singleMessageFromServer(error: AppErrorView): MessageRef {
  const fieldKey = Object.values(error.fields)[0];
  return fieldKey ? { key: fieldKey } : { key: error.messageKey, params: error.params, fallback: error.message || undefined };
}
