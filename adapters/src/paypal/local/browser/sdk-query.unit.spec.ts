import { describe, expect, it } from 'vitest';
import { parseSdkQuery, SdkQueryError } from './sdk-query.js';

describe('parseSdkQuery', () => {
  it('reads what @paypal/paypal-js sends for Quern', () => {
    const config = parseSdkQuery({
      'client-id': 'test-client',
      currency: 'usd',
      intent: 'capture',
      components: 'buttons',
      'enable-funding': 'card',
      'disable-funding': 'paylater',
      'data-ignored': 'x',
    });
    expect(config).toEqual({
      clientId: 'test-client',
      currency: 'USD',
      intent: 'capture',
      commit: true,
      components: ['buttons'],
      eligibleFunding: ['paypal', 'card'],
    });
  });

  it("uses PayPal's defaults: USD, capture, buttons, PayPal and Pay Later", () => {
    expect(parseSdkQuery({ 'client-id': 'c' })).toMatchObject({
      currency: 'USD',
      intent: 'capture',
      components: ['buttons'],
      eligibleFunding: ['paypal', 'paylater'],
    });
  });

  it('keeps only what is not disabled, in display order', () => {
    const config = parseSdkQuery({ 'client-id': 'c', 'enable-funding': 'card,credit', 'disable-funding': 'card,paylater' });
    expect(config.eligibleFunding).toEqual(['paypal', 'credit']);
  });

  it.each([
    [{}, 'Expected client-id to be passed'],
    [{ 'client-id': ['a', 'b'] }, 'Expected a single value for client-id'],
    [{ 'client-id': 'c', currency: 'dollars' }, 'Invalid currency: DOLLARS'],
    [{ 'client-id': 'c', intent: 'steal' }, 'Invalid intent: steal'],
    [{ 'client-id': 'c', commit: 'maybe' }, 'Invalid commit: maybe'],
    [{ 'client-id': 'c', components: 'buttons,wallet' }, 'Invalid component: wallet'],
    [{ 'client-id': 'c', 'disable-funding': 'paypal' }, 'Invalid disable-funding: paypal can not be disabled'],
  ])('refuses %j', (query, message) => {
    expect(() => parseSdkQuery(query)).toThrow(new SdkQueryError(message));
  });
});
