// Proves the SSRF guard's classification: only public unicast addresses may receive webhooks
// (every special-purpose IPv4 and IPv6 range, and IPv4-mapped forms of them, are refused), the
// URL rules (http/https, no userinfo, bounded length), and that a host is judged by every
// address it resolves to, unless private networks are allowed.
import { describe, expect, it } from 'vitest';
import { checkWebhookTarget, checkWebhookUrl, isPublicAddress } from './addresses.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('checkWebhookUrl', () => {
  it('accepts http and https URLs with a host', () => {
    expect(checkWebhookUrl('https://shop.example.com/hooks?x=1').href).toBe('https://shop.example.com/hooks?x=1');
    expect(checkWebhookUrl('http://203.0.113.9:8080/h').port).toBe('8080');
  });

  it.each([
    'ftp://example.com/',
    'javascript:alert(1)',
    'https://user:pw@example.com/',
    'https://example.com/#frag',
    'nope',
    '',
    `https://e.com/${'a'.repeat(2048)}`,
  ])('refuses %s', (url) => {
    expect(() => checkWebhookUrl(url)).toThrow(expect.objectContaining({ messageKey: 'errors:webhookUrlInvalid' }));
  });
});

describe('checkWebhookTarget', () => {
  const resolvingTo = (addresses: string[]) => async () => addresses;

  it('refuses a host when any of its addresses is not public', async () => {
    await expect(
      checkWebhookTarget('https://rebind.example/', { allowPrivateNetworks: false, resolve: resolvingTo(['8.8.8.8', '10.0.0.1']) }),
    ).rejects.toMatchObject({
      messageKey: 'errors:webhookUrlPrivate',
    });
  });

  it('refuses a host that does not resolve', async () => {
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(checkWebhookTarget('https://nowhere.example/', { allowPrivateNetworks: false, resolve: failing })).rejects.toMatchObject({
      messageKey: 'errors:webhookUrlUnresolvable',
    });
  });

  it('accepts public addresses, and anything well-formed when private networks are allowed', async () => {
    await expect(
      checkWebhookTarget('https://shop.example/', { allowPrivateNetworks: false, resolve: resolvingTo(['93.184.216.34']) }),
    ).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookTarget('http://127.0.0.1:9/', { allowPrivateNetworks: true })).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookTarget('ftp://127.0.0.1/', { allowPrivateNetworks: true })).rejects.toMatchObject({
      messageKey: 'errors:webhookUrlInvalid',
    });
  });

  it('judges an IP literal (brackets removed) without DNS', async () => {
    await expect(checkWebhookTarget('http://[::1]/', { allowPrivateNetworks: false })).rejects.toMatchObject({
      messageKey: 'errors:webhookUrlPrivate',
    });
  });
});
