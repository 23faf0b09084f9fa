/**
 * Payment link handlers (ADR 084), each a call of the command pipeline on `payment-link-<id>`
 * (ADR 063). Creating a link also claims its slug (`payment-link-slug-<slug>`, 'no_stream': a slug
 * names one link for good) and lists it in its merchant's index (`payment-links-of-<merchant>`),
 * in the same atomic append, so there is never a link a visitor cannot reach nor one its merchant
 * does not see.
 */
import type { Clock } from '../shared/clock.js';
import { type CommandDeps, foldEvents, handleCommand, readState } from '../shared/command-handler.js';
import type { StreamAppend } from '../shared/ports/event-store.js';
import type { PaymentLinkCommand } from './commands.js';
import { decidePaymentLink, paymentLinkNotFound } from './decider.js';
import { PAYMENT_LINK_ID_PATTERN, PAYMENT_LINK_SLUG_PATTERN, type PaymentLinkAmount, paymentLinkStream } from './events.js';
import { type PaymentLinkState, paymentLinkModel } from './state.js';
import { PAYMENT_LINKS_PER_MERCHANT_MAX } from './contracts.js';

export interface PaymentLinkDeps {
  store: CommandDeps['store'];
  clock: Clock;
  /** A fresh random slug: 12 URL-safe characters. */
  newSlug: () => string;
}

const SLUG_STREAM_PREFIX = 'payment-link-slug-';
export const paymentLinkSlugStream = (slug: string): string => `${SLUG_STREAM_PREFIX}${slug}`;
const SLUG_CLAIMED = 'PaymentLinkSlugClaimed';
const MERCHANT_INDEX_PREFIX = 'payment-links-of-';
export const merchantPaymentLinksStream = (merchantUserId: string): string => `${MERCHANT_INDEX_PREFIX}${merchantUserId}`;
const LINK_LISTED = 'PaymentLinkListed';

const slugClaim = (slug: string, linkId: string): StreamAppend => ({
  streamId: paymentLinkSlugStream(slug),
  events: [{ type: SLUG_CLAIMED, data: { slug, linkId } }],
  expectedRevision: 'no_stream',
});

const merchantListing = (merchantUserId: string, linkId: string): StreamAppend => ({
  streamId: merchantPaymentLinksStream(merchantUserId),
  events: [{ type: LINK_LISTED, data: { linkId } }],
  expectedRevision: 'any',
});

/** The link a slug names, strongly consistent; undefined for any other text. */
export async function findPaymentLinkIdBySlug(deps: Pick<PaymentLinkDeps, 'store'>, slug: string): Promise<string | undefined> {
  if (!PAYMENT_LINK_SLUG_PATTERN.test(slug)) return undefined;
  const [record] = await deps.store.readStream(paymentLinkSlugStream(slug), { maxCount: 1 });
  const linkId = record?.type === SLUG_CLAIMED ? record.data.linkId : undefined;
  return typeof linkId === 'string' && PAYMENT_LINK_ID_PATTERN.test(linkId) ? linkId : undefined;
}

/** The ids of a merchant's links, oldest first; at most PAYMENT_LINKS_PER_MERCHANT_MAX (one bounded read). */
export async function merchantPaymentLinkIds(deps: Pick<PaymentLinkDeps, 'store'>, merchantUserId: string): Promise<string[]> {
  const records = await deps.store.readStream(merchantPaymentLinksStream(merchantUserId), { maxCount: PAYMENT_LINKS_PER_MERCHANT_MAX });
  return records
    .map((record) => (record.type === LINK_LISTED ? record.data.linkId : undefined))
    .filter((id): id is string => typeof id === 'string' && PAYMENT_LINK_ID_PATTERN.test(id));
}

export async function readPaymentLink(deps: Pick<PaymentLinkDeps, 'store'>, linkId: string): Promise<PaymentLinkState | undefined> {
  if (!PAYMENT_LINK_ID_PATTERN.test(linkId)) return undefined;
  return (await readState(deps.store, paymentLinkStream(linkId), paymentLinkModel)).state;
}

async function handlePaymentLinkCommand(
  deps: Pick<PaymentLinkDeps, 'store' | 'clock'>,
  linkId: string,
  command: PaymentLinkCommand,
  companions: StreamAppend[] = [],
) {
  if (!PAYMENT_LINK_ID_PATTERN.test(linkId)) throw paymentLinkNotFound();
  const handled = await handleCommand(
    deps,
    paymentLinkStream(linkId),
    paymentLinkModel,
    (state, now) => ({ events: decidePaymentLink(state, command, now), result: undefined }),
    companions.length > 0 ? { companions: (decision) => (decision.events.length > 0 ? companions : []) } : {},
  );
  const link = foldEvents(paymentLinkModel, handled.state, handled.events);
  if (!link) throw paymentLinkNotFound();
  return { link, position: handled.position };
}

/** A new link of the merchant, with a fresh slug; `companions` go into the same atomic append (the key's claim). */
export function createPaymentLink(
  deps: PaymentLinkDeps,
  input: { linkId: string; merchantUserId: string; amount: PaymentLinkAmount; description?: string; companions?: StreamAppend[] },
) {
  const slug = deps.newSlug();
  const command: PaymentLinkCommand = {
    type: 'CreatePaymentLink',
    data: {
      linkId: input.linkId,
      merchantUserId: input.merchantUserId,
      slug,
      amount: input.amount,
      ...(input.description === undefined ? {} : { description: input.description }),
    },
  };
  return handlePaymentLinkCommand(deps, input.linkId, command, [
    slugClaim(slug, input.linkId),
    merchantListing(input.merchantUserId, input.linkId),
    ...(input.companions ?? []),
  ]);
}

export function deactivatePaymentLink(deps: Pick<PaymentLinkDeps, 'store' | 'clock'>, linkId: string, merchantUserId: string) {
  return handlePaymentLinkCommand(deps, linkId, { type: 'DeactivatePaymentLink', data: { merchantUserId } });
}

export function activatePaymentLink(deps: Pick<PaymentLinkDeps, 'store' | 'clock'>, linkId: string, merchantUserId: string) {
  return handlePaymentLinkCommand(deps, linkId, { type: 'ActivatePaymentLink', data: { merchantUserId } });
}
