// Proves the support mails' composition: the support mailbox's copy in English with the sender named and their text quoted, the acknowledgement in the sender's language quoting neither subject nor text, both signed by the configured company, and every user-written value escaped in the HTML.
import { describe, expect, it } from 'vitest';
import { composeSupportAcknowledgement, composeSupportMessage } from './support-compose.js';

const message = {
  form: 'contact' as const,
  userId: 'user-1',
  fromEmail: 'ana@example.com',
  fromName: 'Ana <script>',
  subject: 'Help & "quotes"',
  text: 'Line one\nLine <b>two</b>',
  language: 'es' as const,
  company: 'Acme Ltd <&>',
};

describe('support mails', () => {
  it('given a message, then the support copy is English, names the sender and quotes the text', () => {
    const mail = composeSupportMessage(message);
    expect(mail.subject).toBe('[Support] Help & "quotes"');
    expect(mail.text).toContain('A message from Ana <script> <ana@example.com> (contact form, user user-1):');
    expect(mail.text).toContain('Line one\nLine <b>two</b>');
    expect(mail.html).toContain('Line one\nLine &lt;b&gt;two&lt;/b&gt;');
    expect(mail.html).toContain('Ana &lt;script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain('The Acme Ltd <&> team');
  });

  it('given a Spanish sender, then the acknowledgement is Spanish and carries neither the subject nor the text', () => {
    const mail = composeSupportAcknowledgement({ ...message, homeUrl: 'https://quern.example/account' });
    expect(mail.subject).toBe('Recibimos su mensaje');
    expect(mail.text).toContain('Hola, Ana <script>:');
    for (const quoted of ['Help', 'quotes', 'Line one', 'two']) {
      expect(mail.text).not.toContain(quoted);
      expect(mail.html).not.toContain(quoted);
    }
    expect(mail.text).toContain('El equipo de Acme Ltd <&>');
    expect(mail.html).toContain('<p>El equipo de Acme Ltd &lt;&amp;&gt;</p>');
    expect(composeSupportAcknowledgement({ ...message, language: 'en', homeUrl: 'https://quern.example/account' }).subject).toBe(
      'We received your message',
    );
  });
});
