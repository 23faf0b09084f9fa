import { describe, expect, it } from 'vitest';
import { loginPathFor, safeReturnPath, signInReason, withReturnPath } from './returnPath.js';

describe('safeReturnPath', () => {
  it('keeps a same-site path with its query', () => {
    expect(safeReturnPath('/user/bob_shop')).toBe('/user/bob_shop');
    expect(safeReturnPath('/contact?topic=billing')).toBe('/contact?topic=billing');
  });

  it.each([
    ['//evil.example'],
    ['https://evil.example'],
    ['http://evil.example/user/bob'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['/\t/evil.example'],
    ['javascript:alert(1)'],
    ['user/bob'],
    [''],
    [null],
  ])('refuses %j, which could leave the site', (raw) => {
    expect(safeReturnPath(raw)).toBeNull();
  });
});

describe('signInReason', () => {
  it('names the merchant of a public plans page', () => {
    expect(signInReason('/user/bob_shop')).toEqual({ key: 'userPlans', username: 'bob_shop' });
    expect(signInReason('/user/bob%20shop?x=1')).toEqual({ key: 'userPlans', username: 'bob shop' });
  });

  it('explains the contact form', () => {
    expect(signInReason('/contact')).toEqual({ key: 'contact' });
  });

  it('gives no reason for other pages or a broken name', () => {
    expect(signInReason('/account')).toBeNull();
    expect(signInReason('/user/%E0%A4%A')).toBeNull();
    expect(signInReason(null)).toBeNull();
  });
});

describe('loginPathFor', () => {
  it('carries the wanted page to the sign-in page', () => {
    expect(loginPathFor('/user/bob_shop')).toBe('/login?next=%2Fuser%2Fbob_shop');
  });

  it('carries the contact form too', () => {
    expect(loginPathFor('/contact')).toBe('/login?next=%2Fcontact');
  });

  it('sends every other protected page to the plain /login of the spec', () => {
    expect(loginPathFor('/account')).toBe('/login');
    expect(loginPathFor('/profile')).toBe('/login');
  });

  it('leaves out the home page and unsafe paths', () => {
    expect(loginPathFor('/')).toBe('/login');
    expect(loginPathFor('//evil.example')).toBe('/login');
  });
});

describe('withReturnPath', () => {
  it('carries a same-site path, query intact, encoded', () => {
    const checkout = '/checkout?cart=%5B%5D&price=100&to=bob&redirect=https%3A%2F%2Fshop.example%2F';
    const link = withReturnPath('/register', checkout);
    expect(link.startsWith('/register?next=')).toBe(true);
    expect(new URL(link, 'http://quern.test').searchParams.get('next')).toBe(checkout);
  });

  it.each([['//evil.example/checkout'], ['https://evil.example/checkout'], ['/\\evil.example'], ['javascript:alert(1)'], [null]])(
    'drops %j, a foreign, absolute or protocol-relative next',
    (raw) => {
      expect(withReturnPath('/password-reset', raw)).toBe('/password-reset');
    },
  );
});
