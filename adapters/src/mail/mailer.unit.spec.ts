// Proves Message-ID domains and outbox file names are derived safely from configuration and ids.
import { describe, expect, it } from 'vitest';
import { mailDomain, outboxFileName } from './mailer.js';

describe('mailDomain', () => {
  it.each([
    ['Quern <no-reply@quern.example>', 'quern.example'],
    ['no-reply@mail.quern.example', 'mail.quern.example'],
    ['Quern', 'quern.localhost'],
  ])('given From %j, when read, then the domain is %j', (from, domain) => {
    expect(mailDomain(from)).toBe(domain);
  });
});

describe('outboxFileName', () => {
  it('given a Message-ID, when turned into a file name, then the angle brackets go and .eml is added', () => {
    expect(outboxFileName('<welcome-email-u1@quern.example>')).toBe('welcome-email-u1@quern.example.eml');
  });

  it('given path characters, when turned into a file name, then they cannot leave the outbox', () => {
    expect(outboxFileName('<../../etc/passwd@x>')).toBe('.._.._etc_passwd@x.eml');
    expect(outboxFileName(`<${'a'.repeat(500)}@x>`).length).toBeLessThanOrEqual(204);
  });
});
