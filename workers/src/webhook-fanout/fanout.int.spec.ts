// Proves the webhook fan-out against a real SQLite log: a refund and a payout's posted transfer
// each become one delivery per endpoint of their merchant that wants the type and existed before
// the event (an endpoint created later, another merchant's, or one subscribed to other types get
// none), with the documented payload; a second run appends nothing; a posted transfer that is no
// payout asks for no job; and the dispatch rules close fan-outs and delivery runs on their events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, RecordedEvent } from '@quern/core';
import {
  createWebhookEndpoint,
  loadWebhookDelivery,
  type WebhookEventType,
  webhookDeliveryStream,
  webhookPayloadSchema,
} from '@quern/core/webhooks';
import { OpenWork } from '../dispatch/open-work.js';
import { dispatchRules } from '../dispatch/rules.js';
import { jobsRequestedBy } from '../job/dispatch-rule.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { fanOutWebhookJob } from './job.js';

const clock = { now: () => new Date('2026-11-24T12:00:00.000Z') };
const secret = `whsec_${'A'.repeat(43)}=`;
const refundId = `re_${'a'.repeat(32)}`;
const orderId = `${'c'.repeat(32)}-1`;
const payoutId = `po_${'b'.repeat(32)}`;
let temp: TempStore;
let store: EventStore;
let uuid = 0;
const deps = () => ({ store, clock, newId: () => `00000000-0000-0000-0000-${String(++uuid).padStart(12, '0')}` });

const endpoint = (merchantUserId: string, events: WebhookEventType[] = []) =>
  createWebhookEndpoint(deps(), { merchantUserId, url: 'https://shop.example/hook', events, secret });

async function appendOne(streamId: string, type: string, data: Record<string, unknown>): Promise<RecordedEvent> {
  await store.append(streamId, [{ type, data }], 'any');
  const events = await store.readStream(streamId);
  return events.at(-1) as RecordedEvent;
}

const fanOut = (source: RecordedEvent, mode: 'sandbox' | 'live' = 'sandbox') =>
  fanOutWebhookJob(
    { streamId: source.streamId, revision: source.revision.toString(), position: source.position.toString() },
    { store, clock, mode, publicUrl: 'https://quern.example' },
  );

beforeAll(() => {
  temp = openTempStore();
  store = temp.store;
});
afterAll(async () => {
  await temp.dispose();
});

describe('webhook fan-out', () => {
  it('a refund reaches the merchant endpoints that want it and existed before it, once', async () => {
    const all = await endpoint('m1');
    const refundsOnly = await endpoint('m1', ['refund.succeeded']);
    const ordersOnly = await endpoint('m1', ['order.paid']);
    await endpoint('m2');
    const refund = await appendOne(`checkout-${'c'.repeat(32)}`, 'CheckoutRefunded', {
      refundId,
      orderId,
      merchantUserId: 'm1',
      shopperUserId: 's1',
      mlx: '1500',
      transferId: `refund-${refundId}`,
      refundedAt: '2026-11-24T11:00:00.000Z',
    });
    await endpoint('m1');
    expect(await fanOut(refund)).toEqual({ deliveries: 2 });
    const streams = (await store.readAll({ maxCount: 1_000 })).filter((e) => e.type === 'WebhookDeliveryScheduled');
    expect(streams.map((e) => e.data.endpointId).sort()).toEqual([all.endpointId, refundsOnly.endpointId].sort());
    expect(streams.map((e) => e.data.endpointId)).not.toContain(ordersOnly.endpointId);
    const { state } = await loadWebhookDelivery(store, String(streams[0]?.data.deliveryId));
    expect(JSON.parse(state.scheduled?.body ?? '{}')).toEqual({
      type: 'refund.succeeded',
      timestamp: '2026-11-24T11:00:00.000Z',
      livemode: false,
      data: {
        id: refundId,
        object: 'refund',
        order: orderId,
        amount: '1500',
        currency: 'MLX',
        status: 'succeeded',
        created_at: '2026-11-24T11:00:00.000Z',
        livemode: false,
      },
    });
    const before = (await store.readAll({ maxCount: 1_000 })).length;
    expect(await fanOut(refund)).toEqual({ deliveries: 0 });
    expect((await store.readAll({ maxCount: 1_000 })).length).toBe(before);
  });

  it("a payout's posted transfer becomes payout.completed with the payout's recipient, amount and fee", async () => {
    const hook = await endpoint('m3', ['payout.completed']);
    await appendOne(`payout-${payoutId}`, 'PayoutRequested', {
      payoutId,
      merchantUserId: 'm3',
      to: 'bob_the_payee',
      toAddress: 'addr',
      mlx: '25000',
      feeMlx: '1000',
      transferId: `payout-${payoutId}`,
      requestedAt: '2026-11-24T10:00:00.000Z',
    });
    const posted = await appendOne('wallet-w-m3', 'TransferPosted', {
      walletId: 'w-m3',
      transferId: `payout-${payoutId}`,
      amountMlx: '25000',
      feeMlx: '1000',
      toAddress: 'addr',
      postedAt: '2026-11-24T10:00:01.000Z',
    });
    expect(jobsRequestedBy(posted, dispatchRules).map((j) => j.queue)).toContain('webhook-fanout');
    // Fanned out by a live Quern: the body says livemode true.
    expect(await fanOut(posted, 'live')).toEqual({ deliveries: 1 });
    const scheduled = (await store.readAll({ maxCount: 1_000 })).filter(
      (e) => e.type === 'WebhookDeliveryScheduled' && e.data.endpointId === hook.endpointId,
    );
    expect(JSON.parse(String(scheduled[0]?.data.body)).livemode).toBe(true);
    expect(JSON.parse(String(scheduled[0]?.data.body)).data).toEqual({
      id: payoutId,
      object: 'payout',
      to: 'bob_the_payee',
      amount: '25000',
      fee: '1000',
      currency: 'MLX',
      status: 'completed',
      created_at: '2026-11-24T10:00:00.000Z',
      livemode: true,
    });
  });

  it('a posted transfer that is no payout asks for no fan-out', async () => {
    const posted = await appendOne('wallet-w9', 'TransferPosted', {
      walletId: 'w9',
      transferId: 'plain-send-1',
      amountMlx: '5',
      feeMlx: '1000',
      toAddress: 'addr',
      postedAt: '2026-11-24T10:00:01.000Z',
    });
    expect(jobsRequestedBy(posted, dispatchRules).map((j) => j.queue)).not.toContain('webhook-fanout');
  });

  it("a subscription's events reach its plan's provider with the subscription as it was right after each event", async () => {
    const all = await endpoint('provider-1');
    const renewalsOnly = await endpoint('provider-1', ['subscription.renewed']);
    await endpoint('subscriber-1');
    const sub = `sub_${'d'.repeat(24)}`;
    const charge = (period: number, chargedAt: string, paidThrough: string) => ({
      subscriptionId: sub,
      period,
      attempt: 1,
      priceMlx: '250000',
      transferId: `subscription-${sub}-${period}`,
      chargedAt,
      paidThrough,
      billingDay: 15,
    });
    const started = await appendOne(`subscription-${sub}`, 'SubscriptionStarted', {
      ...charge(1, '2026-01-15T10:00:00.000Z', '2026-02-15T10:00:00.000Z'),
      planId: '00000000-0000-4000-8000-000000000009',
      providerUserId: 'provider-1',
      subscriberUserId: 'subscriber-1',
      generation: 1,
      planName: 'Gold',
    });
    const renewed = await appendOne(
      `subscription-${sub}`,
      'SubscriptionRenewed',
      charge(2, '2026-02-15T10:00:00.000Z', '2026-03-15T10:00:00.000Z'),
    );
    expect(jobsRequestedBy(started, dispatchRules).map((j) => j.queue)).toContain('webhook-fanout');
    // Fanned out after the renewal was recorded, the creation still reports the subscription of that moment.
    expect(await fanOut(started)).toEqual({ deliveries: 1 });
    expect(await fanOut(renewed)).toEqual({ deliveries: 2 });
    const bodies = (await store.readAll({ maxCount: 1_000 }))
      .filter((e) => e.type === 'WebhookDeliveryScheduled' && String(e.data.body).includes(sub))
      .map((e) => ({ endpointId: e.data.endpointId, body: JSON.parse(String(e.data.body)) }));
    expect(bodies.map((b) => [b.endpointId, b.body.type])).toEqual([
      [all.endpointId, 'subscription.created'],
      [all.endpointId, 'subscription.renewed'],
      [renewalsOnly.endpointId, 'subscription.renewed'],
    ]);
    for (const { body } of bodies) expect(webhookPayloadSchema.safeParse(body).success).toBe(true);
    expect(bodies[0]?.body).toMatchObject({
      timestamp: '2026-01-15T10:00:00.000Z',
      data: { id: sub, status: 'active', paid_through: '2026-02-15T10:00:00.000Z' },
    });
    expect(bodies[0]?.body.data.charges).toHaveLength(1);
    expect(bodies[1]?.body).toMatchObject({ timestamp: '2026-02-15T10:00:00.000Z', data: { paid_through: '2026-03-15T10:00:00.000Z' } });
    expect(bodies[1]?.body.data.charges).toHaveLength(2);
  });

  it('open work: a fan-out closes on its marker, a delivery run on its success or failure', async () => {
    const all = await store.readAll({ maxCount: 1_000 });
    const work = new OpenWork(dispatchRules, 1_000);
    for (const event of all) work.observe(event);
    const open = work.drain().map((j) => j.jobId);
    // Every fan-out above recorded its marker; every scheduled delivery is still open (run 0).
    expect(open.filter((id) => id.startsWith('webhook-fanout-'))).toEqual([]);
    const deliveryJobs = open.filter((id) => id.startsWith('webhook-delivery-'));
    expect(deliveryJobs).toHaveLength(all.filter((e) => e.type === 'WebhookDeliveryScheduled').length);
    expect(deliveryJobs).toHaveLength(6);
    const [first] = all.filter((e) => e.type === 'WebhookDeliveryScheduled');
    const deliveryId = String(first?.data.deliveryId);
    await store.append(
      webhookDeliveryStream(deliveryId),
      [{ type: 'WebhookDeliverySucceeded', data: { deliveryId, run: 0, deliveredAt: clock.now().toISOString() } }],
      'any',
    );
    const again = new OpenWork(dispatchRules, 1_000);
    for (const event of await store.readAll({ maxCount: 1_000 })) again.observe(event);
    expect(
      again
        .drain()
        .map((j) => j.jobId)
        .filter((id) => id.startsWith('webhook-delivery-')),
    ).toEqual(deliveryJobs.filter((id) => !id.includes(deliveryId)));
  });
  // Last: its refund is left without a fan-out, which the open-work count above must not see.
  it('order.paid describes the order as it was at its CheckoutPaid, even when the fan-out runs after a refund', async () => {
    const intent = 'd'.repeat(32);
    const paidOrderId = `${intent}-1`;
    const hook = await endpoint('m3', ['order.paid']);
    const paid = await appendOne(`checkout-${intent}`, 'CheckoutPaid', {
      orderId: paidOrderId,
      shopperUserId: 's3',
      merchantUserId: 'm3',
      mlx: '4000',
      cartDigest: 'e'.repeat(64),
      transferId: `checkout-${intent}`,
      paidAt: '2026-11-24T10:00:00.000Z',
      reference: 'shop-42',
    });
    await appendOne(`checkout-${intent}`, 'CheckoutRefunded', {
      refundId: `re_${'f'.repeat(32)}`,
      orderId: paidOrderId,
      merchantUserId: 'm3',
      shopperUserId: 's3',
      mlx: '4000',
      transferId: `refund-re_${'f'.repeat(32)}`,
      refundedAt: '2026-11-24T11:00:00.000Z',
    });
    expect(await fanOut(paid)).toEqual({ deliveries: 1 });
    const scheduled = (await store.readAll({ maxCount: 1_000 })).filter(
      (e) => e.type === 'WebhookDeliveryScheduled' && e.data.endpointId === hook.endpointId,
    );
    expect(scheduled).toHaveLength(1);
    const { state } = await loadWebhookDelivery(store, String(scheduled[0]?.data.deliveryId));
    expect(JSON.parse(state.scheduled?.body ?? '{}')).toMatchObject({
      type: 'order.paid',
      data: { id: paidOrderId, status: 'paid', amount: '4000', amount_refunded: '0', reference: 'shop-42' },
    });
  });
});
