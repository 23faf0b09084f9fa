// Proves the support message decision: a new message is recorded with its time, once, and never in a shape the mail worker could not read back.
import { describe, expect, it } from 'vitest';
import type { SubmitSupportMessage } from './commands.js';
import { decideSupportMessage } from './decider.js';
import type { SupportEvent } from './events.js';
import { evolveSupportMessage, initialSupportMessageState, type SupportMessageState } from './state.js';

const NOW = new Date('2026-11-27T10:00:00.000Z');
const messageId = '00000000-0000-4000-8000-000000000001';
const submit: SubmitSupportMessage = {
  type: 'SubmitSupportMessage',
  data: {
    messageId,
    submission: {
      form: 'contact',
      userId: 'u1',
      fromEmail: 'ana@example.com',
      fromName: 'Ana',
      subject: 'Help',
      text: 'My send is stuck',
      language: 'en',
    },
  },
};
const given = (...events: SupportEvent[]): SupportMessageState => events.reduce(evolveSupportMessage, initialSupportMessageState());

describe('SubmitSupportMessage', () => {
  it('given no message, when submitted, then SupportMessageSubmitted records it with the time', () => {
    expect(decideSupportMessage(given(), submit, NOW)).toEqual([
      { type: 'SupportMessageSubmitted', data: { messageId, ...submit.data.submission, submittedAt: NOW.toISOString() } },
    ]);
  });

  it('given the message is recorded already, when submitted again under its id, then nothing is decided', () => {
    const [submitted] = decideSupportMessage(given(), submit, NOW);
    if (!submitted) throw new Error('expected a submitted message');
    expect(() => decideSupportMessage(given(submitted), submit, NOW)).toThrow(/recorded already/);
  });

  it('given a name with a line break, when submitted, then nothing is decided (it would not read back)', () => {
    const bad = { ...submit, data: { messageId, submission: { ...submit.data.submission, fromName: 'Ana\r\nBcc: x@example.com' } } };
    expect(() => decideSupportMessage(given(), bad, NOW)).toThrow(/schema/);
  });
});
