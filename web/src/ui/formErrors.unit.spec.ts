// Proves server errors become form messages without losing field messages or repeating them.
import { describe, expect, it } from 'vitest';
import type { AppErrorView } from '../app/appError.js';
import { formErrorsFromServer, singleMessageFromServer } from './formErrors.js';

const conflict: AppErrorView = {
  code: 'CONFLICT',
  messageKey: 'errors:usernameTaken',
  message: 'This username is already taken.',
  params: {},
  fields: { userName: 'errors:usernameTaken', unknownField: 'errors:x' },
};

describe('formErrorsFromServer', () => {
  it('given a conflict naming a field, then the field gets the message and the form does not repeat it', () => {
    expect(formErrorsFromServer(conflict, ['userName', 'email'])).toEqual({ form: null, fields: { userName: 'errors:usernameTaken' } });
  });

  it('given a general error, then the form shows it with the server text as fallback and its params', () => {
    const limited: AppErrorView = {
      code: 'RATE_LIMITED',
      messageKey: 'errors:tooManyAttempts',
      message: 'Wait 5',
      params: { minutes: 5 },
      fields: {},
    };
    expect(formErrorsFromServer(limited, ['email'])).toEqual({
      form: { key: 'errors:tooManyAttempts', params: { minutes: 5 }, fallback: 'Wait 5' },
      fields: {},
    });
  });
});

describe('singleMessageFromServer', () => {
  it('given a field message, then it is the one message', () => {
    expect(singleMessageFromServer(conflict)).toEqual({ key: 'errors:usernameTaken' });
  });

  it('given no field message, then the general message is used', () => {
    const view: AppErrorView = { code: null, messageKey: 'errors:internal', message: '', params: {}, fields: {} };
    expect(singleMessageFromServer(view)).toEqual({ key: 'errors:internal', params: {}, fallback: undefined });
  });
});
