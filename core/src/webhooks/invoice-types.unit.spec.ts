// Proves which invoice events report an `invoice.*` webhook: exactly those that change the
// invoice's status to processing, partially_paid, paid or expired, once per change (a second
// payment in flight, an overpayment, a payment to an expired invoice report nothing), for any
// sequence of payments, failures, expiries and voids the decider allows; and that the body of each
// carries the invoice object and passes the payload schema; and that the texts people read name
// every type of the catalogue, in English and Spanish.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import enErrors from '../i18n/locales/en/errors.json' with { type: 'json' };
import enWebhooks from '../i18n/locales/en/webhooks.json' with { type: 'json' };
import esErrors from '../i18n/locales/es/errors.json' with { type: 'json' };
import esWebhooks from '../i18n/locales/es/webhooks.json' with { type: 'json' };
import type { InvoiceCommand } from '../invoices/commands.js';
import { toInvoiceOutput } from '../invoices/contracts.js';
import { decideInvoice } from '../invoices/decider.js';
import type { InvoiceEvent } from '../invoices/events.js';
import { evolveInvoice, type InvoiceState } from '../invoices/state.js';
import { INVOICE_WEBHOOK_TYPES, isWebhookEventType, WEBHOOK_CATALOGUE, WEBHOOK_EVENT_TYPES, webhookTypeReportedBy } from './catalogue.js';
import { webhookBody, webhookPayloadSchema } from './payload.js';

const CREATED = new Date('2026-11-27T12:00:00.000Z');
const EXPIRES = new Date('2026-11-27T12:15:00.000Z');
const minutes = (n: number) => new Date(CREATED.getTime() + n * 60_000);
const create: InvoiceCommand = {
  type: 'CreateInvoice',
  data: {
    invoiceId: `in_${'a'.repeat(32)}`,
    merchantUserId: 'merchant',
    address: 'addr-1',
    terms: { amountMlx: '10000', currency: 'MLX', metadata: {}, expiresAt: EXPIRES.toISOString() },
  },
};
const pay = (paymentId: string, amountMlx: bigint, stage: 'seen' | 'settled' | 'failed'): InvoiceCommand => ({
  type: 'RecordInvoicePayment',
  data: { paymentId, route: 'network', amountMlx, stage },
});
const expire: InvoiceCommand = { type: 'ExpireInvoice', data: {} };

/** Decides each command on the state so far, as the pipeline does; a refused command records nothing. */
function run(commands: Array<[InvoiceCommand, Date]>): { events: InvoiceEvent[]; states: InvoiceState[] } {
  let state: InvoiceState | undefined;
  const events: InvoiceEvent[] = [];
  const states: InvoiceState[] = [];
  for (const [command, now] of [[create, CREATED] as [InvoiceCommand, Date], ...commands]) {
    let decided: InvoiceEvent[] = [];
    try {
      decided = decideInvoice(state, command, now);
    } catch {
      // A refusal (a void once money arrived, a settled payment failing) appends nothing.
    }
    for (const event of decided) {
      state = evolveInvoice(state, event);
      if (!state) throw new Error('no invoice');
      events.push(event);
      states.push(state);
    }
  }
  return { events, states };
}

// The log hands the fan-out plain JSON data; the decider's events are that data.
const asRecorded = (event: InvoiceEvent) => ({ type: event.type, data: { ...event.data } as Record<string, unknown> });
const reported = (commands: Array<[InvoiceCommand, Date]>) => run(commands).events.map((event) => webhookTypeReportedBy(asRecorded(event)));

describe('invoice webhook types', () => {
  it('the catalogue holds the four invoice types, each with the invoice object', () => {
    expect(INVOICE_WEBHOOK_TYPES).toEqual(['invoice.processing', 'invoice.partially_paid', 'invoice.paid', 'invoice.expired']);
    for (const type of INVOICE_WEBHOOK_TYPES) expect(isWebhookEventType(type)).toBe(true);
    expect(isWebhookEventType('invoice.void')).toBe(false);
  });

  it('given a part settled, the rest seen then settled, and an overpayment, then partially_paid, processing, paid and nothing more', () => {
    expect(
      reported([
        [pay('d1', 4_000n, 'settled'), minutes(1)],
        [pay('d2', 6_000n, 'seen'), minutes(2)],
        // A second payment in flight while processing: no change, no webhook.
        [pay('d3', 500n, 'seen'), minutes(3)],
        [pay('d2', 6_000n, 'settled'), minutes(4)],
        // The overpayment once paid: seen and settled, neither is a second invoice.paid.
        [pay('d3', 500n, 'settled'), minutes(5)],
        [pay('d4', 700n, 'seen'), minutes(6)],
        [pay('d4', 700n, 'settled'), minutes(7)],
      ]),
    ).toEqual([undefined, 'invoice.partially_paid', 'invoice.processing', undefined, 'invoice.paid', undefined, undefined, undefined]);
  });

  it('given a payment in flight that fails while a part is paid, then partially_paid again; the expiry then reports expired', () => {
    expect(
      reported([
        [pay('d1', 4_000n, 'settled'), minutes(1)],
        [pay('d2', 6_000n, 'seen'), minutes(2)],
        [pay('d2', 6_000n, 'failed'), minutes(3)],
        [expire, EXPIRES],
        // Money after the expiry is recorded; the invoice stays expired until it is paid (late).
        [pay('d3', 1_000n, 'seen'), minutes(20)],
        [pay('d3', 1_000n, 'settled'), minutes(21)],
        [pay('d4', 5_000n, 'settled'), minutes(22)],
      ]),
    ).toEqual([
      undefined,
      'invoice.partially_paid',
      'invoice.processing',
      'invoice.partially_paid',
      'invoice.expired',
      undefined,
      undefined,
      'invoice.paid',
    ]);
  });

  it('given a payment seen that fails on an open invoice, then processing only: back to open is no webhook', () => {
    expect(
      reported([
        [pay('d1', 10_000n, 'seen'), minutes(1)],
        [pay('d1', 10_000n, 'failed'), minutes(2)],
      ]),
    ).toEqual([undefined, 'invoice.processing', undefined]);
  });

  it('given any sequence the decider allows, then an event reports invoice.<status> exactly when it changed the status to a catalogued one', () => {
    const ids = ['d1', 'd2', 'd3'] as const;
    const amounts = [1_000n, 4_000n, 6_000n, 10_000n] as const;
    const command = fc.oneof(
      fc
        .tuple(fc.constantFrom(...ids), fc.constantFrom('seen', 'settled', 'failed') as fc.Arbitrary<'seen' | 'settled' | 'failed'>)
        // One amount per payment id, so a stage is never refused as another payment under the same id.
        .map(([id, stage]) => pay(id, amounts[ids.indexOf(id)] ?? 1_000n, stage)),
      fc.constant(expire),
      fc.constant<InvoiceCommand>({ type: 'VoidInvoice', data: { merchantUserId: 'merchant' } }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(command, fc.integer({ min: 0, max: 30 })), { maxLength: 12 }), (steps) => {
        const { events } = run(steps.map(([c, minute]) => [c, minutes(minute)]));
        for (const event of events) {
          const recorded = asRecorded(event);
          const accepting = WEBHOOK_EVENT_TYPES.filter((type) => {
            const entry: { reportedBy: readonly string[]; reportsWhen?: (r: typeof recorded) => boolean } = WEBHOOK_CATALOGUE[type];
            return entry.reportedBy.includes(recorded.type) && (entry.reportsWhen?.(recorded) ?? true);
          });
          const changedTo =
            event.type !== 'InvoiceCreated' && event.data.status !== event.data.previousStatus ? `invoice.${event.data.status}` : undefined;
          const expected =
            changedTo !== undefined && (INVOICE_WEBHOOK_TYPES as readonly string[]).includes(changedTo) ? changedTo : undefined;
          expect(accepting).toEqual(expected === undefined ? [] : [expected]);
          expect(webhookTypeReportedBy(recorded)).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('each body carries the invoice as it was after its event and passes the payload schema; another object does not', () => {
    const { events, states } = run([
      [pay('d1', 4_000n, 'settled'), minutes(1)],
      [pay('d2', 6_000n, 'seen'), minutes(2)],
    ]);
    const index = events.findIndex((event) => webhookTypeReportedBy(asRecorded(event)) === 'invoice.processing');
    const state = states[index];
    if (!state) throw new Error('no processing state');
    const data = toInvoiceOutput(state, 'https://quern.example');
    const body = JSON.parse(webhookBody({ type: 'invoice.processing', data }, minutes(2).toISOString(), 'sandbox'));
    expect(body.data).toMatchObject({ status: 'processing', amount_paid_mlx: '4000', amount_pending_mlx: '6000', livemode: false });
    expect(body.data.hosted_url).toBe(`https://quern.example/i/in_${'a'.repeat(32)}`);
    expect(webhookPayloadSchema.safeParse(body).success).toBe(true);
    const wrong = { ...body, data: { ...body.data, object: 'order' } };
    expect(webhookPayloadSchema.safeParse(wrong).success).toBe(false);
  });

  it('the unknown-type message and the web labels name every type of the catalogue, in English and Spanish', () => {
    for (const [errors, webhooks] of [
      [enErrors, enWebhooks],
      [esErrors, esWebhooks],
    ] as const) {
      for (const type of WEBHOOK_EVENT_TYPES) {
        expect(errors.webhookEventUnknown).toContain(type);
        // The web's label key (web/src/features/merchant-keys/webhooks/eventName.ts).
        expect(webhooks.eventNames).toHaveProperty(type.replace('.', '_'));
      }
    }
  });
});
