// Proves the events feed's pure parts: a cursor is a decimal log position and nothing else; a
// replay bound is a cursor or a day or an instant (a `to` day is its whole day), and reversed
// bounds of one kind are caught; the `types` filter accepts only known types; and which recorded
// event is which feed entry, and whose, is read from the event alone.
import { describe, expect, it } from 'vitest';
import {
  boundsReversed,
  eventsListQuery,
  FEED_EVENT_TYPES,
  feedEntryOf,
  feedEventIdOf,
  parseFeedBound,
  parseFeedCursor,
  parseFeedTypes,
  subscriptionProviderOf,
  webhookReplayInput,
} from './index.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/catalogue.js';
import { payoutTransferId } from '../payouts/events.js';

describe('cursor', () => {
  it('given decimal positions, when parsed, then they read as bigints; anything else does not', () => {
    expect(parseFeedCursor('0')).toBe(0n);
    expect(parseFeedCursor('18446744073709551615')).toBe(2n ** 64n - 1n);
    for (const bad of ['', '-1', '01', '1.5', '1e3', ' 1', '18446744073709551616', 'abc', '0x10'])
      expect(parseFeedCursor(bad), bad).toBeUndefined();
  });
});

describe('replay bounds', () => {
  it('reads a cursor, a day and an instant; a to-day ends at its last millisecond', () => {
    expect(parseFeedBound('42', 'from')).toEqual({ kind: 'cursor', position: 42n });
    expect(parseFeedBound('2026-03-01', 'from')).toEqual({ kind: 'time', ms: Date.parse('2026-03-01T00:00:00Z') });
    expect(parseFeedBound('2026-03-01', 'to')).toEqual({ kind: 'time', ms: Date.parse('2026-03-01T23:59:59.999Z') });
    expect(parseFeedBound('2026-03-01T10:00:00+02:00', 'to')).toEqual({ kind: 'time', ms: Date.parse('2026-03-01T08:00:00Z') });
    for (const bad of ['2026-02-31', '2026-03-01T10:00:00', 'yesterday', '-5', ''])
      expect(parseFeedBound(bad, 'from'), bad).toBeUndefined();
  });

  it('given bounds of one kind, when from is after to, then they are reversed; a cursor and a time are not compared', () => {
    expect(boundsReversed({ kind: 'cursor', position: 5n }, { kind: 'cursor', position: 4n })).toBe(true);
    expect(boundsReversed({ kind: 'cursor', position: 5n }, { kind: 'cursor', position: 5n })).toBe(false);
    expect(boundsReversed({ kind: 'time', ms: 2 }, { kind: 'time', ms: 1 })).toBe(true);
    expect(boundsReversed({ kind: 'cursor', position: 5n }, { kind: 'time', ms: 1 })).toBe(false);
    const reversed = webhookReplayInput.safeParse({ from: '2026-03-02', to: '2026-03-01' });
    expect(reversed.success).toBe(false);
    expect(reversed.error?.issues[0]?.message).toBe('errors:eventsReplayRangeReversed');
    expect(webhookReplayInput.safeParse({ from: '2026-03-01', to: '2026-03-01' }).success).toBe(true);
    expect(webhookReplayInput.safeParse({ from: 'soon', to: '9' }).error?.issues[0]?.message).toBe('errors:eventsReplayInvalidBound');
  });
});

describe('types filter', () => {
  it('keeps known types once each, in the feed order; one unknown name refuses the whole list', () => {
    expect(parseFeedTypes('refund.succeeded,order.paid,order.paid')).toEqual(['order.paid', 'refund.succeeded']);
    expect(parseFeedTypes('webhook_endpoint.deleted')).toEqual(['webhook_endpoint.deleted']);
    expect(parseFeedTypes('order.paid,order.refunded')).toBeUndefined();
    expect(parseFeedTypes('')).toBeUndefined();
    const refused = eventsListQuery.safeParse({ types: 'order.paid,nope' });
    expect(refused.error?.issues[0]?.message).toBe('errors:eventsFeedUnknownType');
    expect(eventsListQuery.parse({ limit: '1000' }).limit).toBe(1000);
    expect(eventsListQuery.safeParse({ limit: '1001' }).success).toBe(false);
    expect(eventsListQuery.safeParse({ limit: '0' }).success).toBe(false);
  });

  it('lists every webhook type and the feed types of endpoints and invoice refunds', () => {
    expect(FEED_EVENT_TYPES.slice(0, WEBHOOK_EVENT_TYPES.length)).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(FEED_EVENT_TYPES).toContain('webhook_endpoint.secret_rotated');
    expect(FEED_EVENT_TYPES).toContain('invoice.refund_claimed');
  });
});

describe('feed entries', () => {
  it('names the merchant the event names, the wallet of a payout transfer, the provider or the subscription', () => {
    expect(feedEntryOf({ type: 'CheckoutPaid', data: { merchantUserId: 'm1' } })).toEqual({
      type: 'order.paid',
      owner: { merchantUserId: 'm1' },
    });
    const payoutTransfer = { type: 'TransferPosted', data: { walletId: 'm2', transferId: payoutTransferId(`po_${'a'.repeat(32)}`) } };
    expect(feedEntryOf(payoutTransfer)).toEqual({ type: 'payout.completed', owner: { merchantUserId: 'm2' } });
    expect(feedEntryOf({ type: 'TransferPosted', data: { walletId: 'm2', transferId: 'send-1' } })).toBeUndefined();
    expect(feedEntryOf({ type: 'SubscriptionRenewed', data: { subscriptionId: 'sub_1' } })).toEqual({
      type: 'subscription.renewed',
      owner: { subscriptionId: 'sub_1' },
    });
    expect(feedEntryOf({ type: 'SubscriptionStarted', data: { subscriptionId: 'sub_1', providerUserId: 'p' } })?.owner).toEqual({
      merchantUserId: 'p',
    });
    expect(subscriptionProviderOf({ type: 'SubscriptionStarted', data: { subscriptionId: 'sub_1', providerUserId: 'p' } })).toEqual({
      subscriptionId: 'sub_1',
      providerUserId: 'p',
    });
    expect(feedEntryOf({ type: 'WebhookEndpointDeleted', data: { endpointId: 'we_1', merchantUserId: 'm3', deletedAt: 'x' } })).toEqual({
      type: 'webhook_endpoint.deleted',
      owner: { merchantUserId: 'm3' },
    });
  });

  it('makes no entry of other events or of one that does not say whose it is', () => {
    expect(feedEntryOf({ type: 'WebhookDeliveryScheduled', data: { merchantUserId: 'm' } })).toBeUndefined();
    expect(feedEntryOf({ type: 'CheckoutPaid', data: {} })).toBeUndefined();
    expect(feedEntryOf({ type: 'InvoiceRefundCreated', data: { merchantUserId: 'm' } })).toBeUndefined();
  });

  it('gives each source event one stable id', () => {
    const id = feedEventIdOf({ streamId: 'checkout-1', revision: 3n });
    expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(feedEventIdOf({ streamId: 'checkout-1', revision: 3n })).toBe(id);
    expect(feedEventIdOf({ streamId: 'checkout-1', revision: 4n })).not.toBe(id);
  });
});
