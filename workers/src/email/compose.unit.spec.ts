// Proves the e-mails come out in the asked language with the link and the user's name (the receipt with its figures formatted per language), escape HTML, and that both languages define the same texts.
import { describe, expect, it } from 'vitest';
import en from '@quern/core/locales/en/email.json' with { type: 'json' };
import es from '@quern/core/locales/es/email.json' with { type: 'json' };
import { composeEmailVerificationEmail, composePasswordResetEmail, composePurchaseReceiptEmail, composeWelcomeEmail } from './compose.js';
import { fill } from './texts.js';

const keysOf = (value: object, prefix = ''): string[] =>
  Object.entries(value).flatMap(([key, inner]) =>
    typeof inner === 'object' && inner ? keysOf(inner, `${prefix}${key}.`) : [`${prefix}${key}`],
  );

describe('e-mail texts', () => {
  it('given the English and Spanish resources, when compared, then they have the same keys and no empty text', () => {
    expect(keysOf(es).sort()).toEqual(keysOf(en).sort());
    const values = (v: object): string[] => Object.values(v).flatMap((x) => (typeof x === 'string' ? [x] : values(x)));
    expect([...values(en), ...values(es)].every((text) => text.trim().length > 0)).toBe(true);
  });

  it('given a template with a missing parameter, when filled, then it throws instead of leaving a gap', () => {
    expect(fill('Hello {{ firstName }}', { firstName: 'Ada' })).toBe('Hello Ada');
    expect(() => fill('Hello {{firstName}}', {})).toThrow(/firstName/);
  });
});

describe('composeWelcomeEmail', () => {
  it('given English, when composed, then subject, greeting, username and link are there', () => {
    const mail = composeWelcomeEmail({
      company: 'Quern',
      language: 'en',
      firstName: 'Ada',
      username: 'ada_l',
      walletUrl: 'https://quern.example/account',
    });
    expect(mail.subject).toBe('Welcome to Quern');
    expect(mail.text).toContain('Hello Ada,');
    expect(mail.text).toContain('Your username is ada_l.');
    expect(mail.text).toContain('Open your wallet: https://quern.example/account');
    expect(mail.html).toContain('<a href="https://quern.example/account">Open your wallet</a>');
  });

  it('given Spanish, when composed, then the Spanish texts are used', () => {
    const mail = composeWelcomeEmail({
      company: 'Quern',
      language: 'es',
      firstName: 'Ada',
      username: 'ada_l',
      walletUrl: 'https://quern.example/account',
    });
    expect(mail.subject).toBe('Le damos la bienvenida a Quern');
    expect(mail.text).toContain('Hola, Ada:');
  });

  it('given a name with markup, when composed, then the HTML escapes it and the text keeps it', () => {
    const mail = composeWelcomeEmail({
      company: 'Quern',
      language: 'en',
      firstName: '<b>Eve</b>',
      username: 'eve',
      walletUrl: 'https://quern.example/account',
    });
    expect(mail.html).toContain('Hello &lt;b&gt;Eve&lt;/b&gt;,');
    expect(mail.html).not.toContain('<b>Eve</b>');
    expect(mail.text).toContain('Hello <b>Eve</b>,');
  });
});

describe('the company (COMPANY_NAME)', () => {
  it('given a configured name, when any e-mail is composed, then its signature and footer name it, escaped in the HTML', () => {
    const company = 'Acme Ltd <&>';
    const en = composeWelcomeEmail({
      company,
      language: 'en',
      firstName: 'Ada',
      username: 'ada_l',
      walletUrl: 'https://quern.example/account',
    });
    expect(en.text).toContain(
      '\n\nThe Acme Ltd <&> team\n\n--\nYou receive this e-mail because an account was created with this address at Acme Ltd <&>, the millix (MLX) wallet.\n',
    );
    expect(en.html).toContain('<p>The Acme Ltd &lt;&amp;&gt; team</p>');
    expect(en.html).toContain('at Acme Ltd &lt;&amp;&gt;, the millix (MLX) wallet.</p>');
    expect(en.html).not.toContain('Acme Ltd <&>');
    // The product keeps its name in the subject; only the operator's lines change.
    expect(en.subject).toBe('Welcome to Quern');
    const es = composePasswordResetEmail({
      company,
      language: 'es',
      firstName: 'Ada',
      resetUrl: 'https://quern.example/r',
      minutesValid: 60,
    });
    expect(es.text).toContain('El equipo de Acme Ltd <&>');
    expect(es.text).toContain('en Acme Ltd <&>, la billetera de millix (MLX).');
  });

  it('given the default name, when composed, then the e-mail reads as before', () => {
    const mail = composeWelcomeEmail({
      company: 'Quern',
      language: 'en',
      firstName: 'Ada',
      username: 'ada_l',
      walletUrl: 'https://quern.example/account',
    });
    expect(mail.text).toContain('The Quern team');
    expect(mail.text).not.toContain('{{');
  });
});

describe('composePasswordResetEmail', () => {
  it('given a reset link, when composed, then it carries the link and how long it is valid', () => {
    const resetUrl = 'https://quern.example/password-reset-verify?t=u.r.sig';
    const mail = composePasswordResetEmail({ company: 'Quern', language: 'en', firstName: 'Ada', resetUrl, minutesValid: 60 });
    expect(mail.subject).toBe('Reset your Quern password');
    expect(mail.text).toContain(`Choose a new password: ${resetUrl}`);
    expect(mail.text).toContain('expires in 60 minutes');
    expect(mail.html).toContain(`href="${resetUrl}"`);
  });
});

describe('composePurchaseReceiptEmail', () => {
  const figures = {
    firstName: 'Ada',
    receiptUrl: 'https://quern.example/receipts/purchase-5O190127TN364715T',
    mlx: 1_234_567n,
    usdCents: 1_550n,
    usdPerMlx: '0.0000125',
    orderId: '5O190127TN364715T',
    captureId: '3C679366HH908993F',
    creditedAt: '2026-03-01T10:05:00.000Z',
  };

  it('given English, when composed, then MLX, USD with two decimals, the rate with separators, both ids and the date are there', () => {
    const mail = composePurchaseReceiptEmail({ company: 'Quern', language: 'en', ...figures });
    expect(mail.subject).toBe('Your Quern receipt: 1,234,567 MLX');
    expect(mail.text).toContain('Hello Ada,');
    expect(mail.text).toContain('MLX credited: 1,234,567 MLX');
    expect(mail.text).toContain('Paid: 15.50 USD');
    expect(mail.text).toContain('Rate: 1 USD = 80,000 MLX');
    expect(mail.text).toContain('Order: 5O190127TN364715T');
    expect(mail.text).toContain('PayPal transaction: 3C679366HH908993F');
    expect(mail.text).toMatch(/Date: 1 March 2026 at 10:05 am \(UTC\)/);
    expect(mail.text).toContain('See or print your receipt: https://quern.example/receipts/purchase-5O190127TN364715T');
    expect(mail.html).toContain('<th style="text-align:left;padding:2px 12px 2px 0">Rate</th><td>1 USD = 80,000 MLX</td>');
  });

  it('given Spanish, when composed, then the Spanish texts and number and date formats are used', () => {
    const mail = composePurchaseReceiptEmail({ company: 'Quern', language: 'es', ...figures, usdPerMlx: '0.000012' });
    expect(mail.subject).toBe('Su recibo de Quern: 1.234.567 MLX');
    expect(mail.text).toContain('Hola, Ada:');
    expect(mail.text).toContain('Importe pagado: 15,50 USD');
    expect(mail.text).toContain('Tipo de cambio: 1 USD = 83.333,33 MLX');
    expect(mail.text).toMatch(/Fecha: 1 de marzo de 2026.*10:05 \(UTC\)/);
  });

  it('given a name with markup, when composed, then the HTML escapes it; an unreadable rate is refused rather than mailed', () => {
    expect(composePurchaseReceiptEmail({ company: 'Quern', language: 'en', ...figures, firstName: '<i>Eve</i>' }).html).toContain(
      '&lt;i&gt;Eve&lt;/i&gt;',
    );
    expect(() => composePurchaseReceiptEmail({ company: 'Quern', language: 'en', ...figures, usdPerMlx: 'abc' })).toThrow(/rate/);
  });
});

describe('the verification link (ADR 046)', () => {
  it('given a sign-up, then the welcome mail links to the verification instead of the wallet and says how long it lasts', () => {
    const mail = composeWelcomeEmail({
      company: 'Quern',
      language: 'en',
      firstName: 'Ada',
      username: 'ada_l',
      walletUrl: 'https://quern.example/account',
      verify: { url: 'https://quern.example/verify-email?t=u.r.mac', hoursValid: 24 },
    });
    expect(mail.text).toContain('Confirm your e-mail address: https://quern.example/verify-email?t=u.r.mac');
    expect(mail.text).toContain('This link works once and expires in 24 hours.');
    expect(mail.text).not.toContain('https://quern.example/account');
  });

  it("given another link asked for, then the mail is in the account's language and carries no name", () => {
    const mail = composeEmailVerificationEmail({
      company: 'Quern',
      language: 'es',
      verifyUrl: 'https://quern.example/verify-email?t=x',
      hoursValid: 23,
    });
    expect(mail.subject).toBe('Confirme su correo para Quern');
    expect(mail.text).toContain('Confirmar su correo: https://quern.example/verify-email?t=x');
    expect(mail.text).toContain('caduca en 23 horas');
  });
});
