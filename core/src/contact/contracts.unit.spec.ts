// Proves the contact forms' rules: required fields, bounds, and that nothing with a line break can become a mail header.
import { describe, expect, it } from 'vitest';
import { contactSendInput, supportSendInput } from './contracts.js';
import { toSupportEvent } from './events.js';

const messages = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

const contact = { from: 'ana@example.com', subject: 'Help', text: 'My send is stuck', captcha: 'token' };

describe('contact and support inputs', () => {
  it('given a complete contact form, then it parses with trimmed fields', () => {
    expect(contactSendInput.parse({ ...contact, subject: '  Help  ' })).toEqual(contact);
  });

  it('given an empty subject or details, then the answer is all fields required', () => {
    expect(messages(contactSendInput.safeParse({ ...contact, subject: ' ' }))).toEqual(['errors:allFieldsRequired']);
    expect(messages(supportSendInput.safeParse({ userId: 'u', subject: 'Help', text: '', captcha: 'x' }))).toEqual([
      'errors:allFieldsRequired',
    ]);
  });

  it('given no captcha response, then the answer is Verify reCAPTCHA', () => {
    expect(messages(contactSendInput.safeParse({ ...contact, captcha: '' }))).toEqual(['errors:verifyCaptcha']);
    expect(messages(contactSendInput.safeParse({ from: contact.from, subject: 'a', text: 'b' }))).toEqual(['errors:verifyCaptcha']);
  });

  it('given a line break or another control character in the subject, then it is refused, not stripped', () => {
    for (const subject of ['Hi\r\nBcc: victim@example.com', 'Hi\nthere', 'Hi\u0000']) {
      expect(messages(contactSendInput.safeParse({ ...contact, subject }))).toEqual(['errors:contactLineBreak']);
    }
  });

  it('given a subject or details over their bounds, then each names its limit', () => {
    expect(messages(contactSendInput.safeParse({ ...contact, subject: 'a'.repeat(201) }))).toEqual(['errors:contactSubjectTooLong']);
    expect(messages(contactSendInput.safeParse({ ...contact, text: 'a'.repeat(5001) }))).toEqual(['errors:contactDetailsTooLong']);
    expect(contactSendInput.safeParse({ ...contact, subject: 'a'.repeat(200), text: 'b'.repeat(5000) }).success).toBe(true);
  });

  it('given a bad address or an extra field, then it is refused', () => {
    expect(messages(contactSendInput.safeParse({ ...contact, from: 'not an address' }))).toEqual(['errors:invalidEmail']);
    expect(messages(contactSendInput.safeParse({ ...contact, from: 'a@example.com\r\nBcc: x@example.com' }))).toEqual([
      'errors:invalidEmail',
    ]);
    expect(contactSendInput.safeParse({ ...contact, cc: 'x@example.com' }).success).toBe(false);
  });

  it('given a recorded message whose name carries a line break, then it does not read as a SupportMessageSubmitted', () => {
    const data = {
      messageId: '00000000-0000-4000-8000-000000000001',
      form: 'support',
      userId: 'u1',
      fromEmail: 'ana@example.com',
      fromName: 'Ana',
      subject: 'Help',
      text: 'Body\nwith lines',
      language: 'en',
      submittedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(toSupportEvent({ type: 'SupportMessageSubmitted', data })?.type).toBe('SupportMessageSubmitted');
    expect(toSupportEvent({ type: 'SupportMessageSubmitted', data: { ...data, fromName: 'Ana\r\nBcc: x@example.com' } })).toBeUndefined();
    expect(toSupportEvent({ type: 'SupportMessageSubmitted', data: { ...data, language: 'fr' } })).toBeUndefined();
  });
});
