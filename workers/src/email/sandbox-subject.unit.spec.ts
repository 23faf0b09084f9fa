// Proves the sandbox's e-mail subject tag: a sandbox mailer tags every subject once (and leaves
// every other field as given), a live one sends the subject as written; close reaches the mailer.
import type { EmailMessage, Mailer } from '@quern/adapters/mail';
import { describe, expect, it, vi } from 'vitest';
import { mailerForMode, sandboxSubject } from './sandbox-subject.js';

function recordingMailer() {
  const sent: EmailMessage[] = [];
  const mailer: Mailer = {
    send: async (message) => {
      sent.push(message);
      return { messageId: `<${sent.length}@quern.example>` };
    },
    close: vi.fn(async () => {}),
  };
  return { sent, mailer };
}

const message: EmailMessage = {
  to: 'ada@example.com',
  subject: 'Su recibo de Quern: 1.234.567 MLX',
  text: 'Hola',
  html: '<p>Hola</p>',
  messageKey: 'purchase-receipt-o1',
  replyTo: { name: 'Ada', address: 'ada@example.com' },
};

describe('mailerForMode', () => {
  it('in a sandbox, tags the subject and passes every other field unchanged', async () => {
    const { sent, mailer } = recordingMailer();
    const result = await mailerForMode(mailer, 'sandbox').send(message);
    expect(result).toEqual({ messageId: '<1@quern.example>' });
    expect(sent).toEqual([{ ...message, subject: '[Sandbox] Su recibo de Quern: 1.234.567 MLX' }]);
  });

  it('live, sends the subject as written', async () => {
    const { sent, mailer } = recordingMailer();
    expect(mailerForMode(mailer, 'live')).toBe(mailer);
    await mailerForMode(mailer, 'live').send(message);
    expect(sent[0]?.subject).toBe('Su recibo de Quern: 1.234.567 MLX');
  });

  it('closes the mailer it wraps', async () => {
    const { mailer } = recordingMailer();
    await mailerForMode(mailer, 'sandbox').close();
    expect(mailer.close).toHaveBeenCalledOnce();
  });
});

describe('sandboxSubject', () => {
  it('tags once', () => {
    expect(sandboxSubject('Welcome to Quern')).toBe('[Sandbox] Welcome to Quern');
    expect(sandboxSubject(sandboxSubject('Welcome to Quern'))).toBe('[Sandbox] Welcome to Quern');
  });
});
