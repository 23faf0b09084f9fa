/**
 * The subscription e-mail job (en/es): one e-mail named by its kind and the event it is for.
 * Idempotent through the log like the receipt e-mail: SubscriptionEmailSent with the same e-mail
 * id on the subscription stream (recorded once by core) means nothing is sent again; a crash
 * between sending and recording can send a second mail with the same Message-ID (at least once).
 *
 * The recipient is the subscriber, or the plan's provider for the new-subscriber and provider
 * cancellation mails; the language is theirs as their registration records it, else English.
 */
import type { RecordedEvent } from '@quern/core';
import { defaultLanguage } from '@quern/core/i18n';
import type { UserRegistered } from '@quern/core/identity';
import {
  type SubscriptionDeps,
  type SubscriptionEvent,
  type SubscriptionState,
  evolveSubscription,
  recordSubscriptionEmail,
  subscriptionStream,
  toSubscriptionEvent,
} from '@quern/core/subscriptions';
import { receiptPath } from '@quern/core/receipts';
import { mlxFromWire } from '@quern/core/wallet';
import { UnrecoverableError } from 'bullmq';
import { composeSubscriptionEmail, type SubscriptionEmail } from '../email/subscription-compose.js';
import { companyOf, type EmailJobDeps, type EmailJobResult } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { languageIn } from '../language.js';
import { emailVerifiedIn, readUserStream } from '../user-stream.js';
import { emailIdOf, type SubscriptionEmailPayload, subscriptionEmailMessageKey, subscriptionEmailPayload } from './payload.js';

type SubscriptionJobDeps = EmailJobDeps & Pick<SubscriptionDeps, 'serialize' | 'stateCache'>;

const PROVIDER_KINDS = new Set(['newSubscriberProvider', 'cancelledProvider']);

function foldSubscription(records: RecordedEvent[]): SubscriptionState | undefined {
  let state: SubscriptionState | undefined;
  for (const record of records) {
    const event = toSubscriptionEvent(record);
    if (!event) throw new UnrecoverableError(`Unreadable ${record.type} at ${record.streamId}@${record.revision}`);
    state = evolveSubscription(state, event, record.revision);
  }
  return state;
}

/** The event the e-mail is about, found by its key; undefined when the stream has no such event. */
function sourceOf(records: RecordedEvent[], { kind, key }: SubscriptionEmailPayload): SubscriptionEvent | undefined {
  for (const record of records) {
    const event = toSubscriptionEvent(record);
    if (!event) continue;
    switch (kind) {
      case 'receipt':
        if ((event.type === 'SubscriptionStarted' || event.type === 'SubscriptionRenewed') && String(event.data.period) === key)
          return event;
        break;
      case 'newSubscriberProvider':
        if (event.type === 'SubscriptionStarted') return event;
        break;
      case 'chargeFailed':
        if (event.type === 'SubscriptionChargeFailed' && `${event.data.period}-${event.data.attempt}` === key) return event;
        break;
      case 'cancelledSubscriber':
      case 'cancelledProvider':
        if (event.type === 'SubscriptionCancelled' && record.revision.toString() === key) return event;
        break;
      case 'priceChange':
        if (event.type === 'SubscriptionPriceChangeAnnounced' && event.data.planRevision === key) return event;
        break;
    }
  }
  return undefined;
}

export async function sendSubscriptionEmail(data: unknown, deps: SubscriptionJobDeps): Promise<EmailJobResult> {
  const payload = parsePayload(subscriptionEmailPayload, data);
  const { subscriptionId, kind } = payload;
  const emailId = emailIdOf(payload);
  const records = await deps.store.readStream(subscriptionStream(subscriptionId));
  const state = foldSubscription(records);
  if (!state) throw new UnrecoverableError(`Subscription ${subscriptionId} does not exist`);
  const sent = records.find((r) => r.type === 'SubscriptionEmailSent' && r.data.emailId === emailId);
  if (sent) return { outcome: 'already-sent', messageId: String(sent.data.messageId) };
  // The job comes from the source event in this stream; without it no retry can send this mail.
  const source = sourceOf(records, payload);
  if (!source) throw new UnrecoverableError(`Subscription ${subscriptionId} has no event for the e-mail ${emailId}`);

  const toProvider = PROVIDER_KINDS.has(kind);
  const recipient = await registrationOf(deps, toProvider ? state.providerUserId : state.subscriberUserId);
  // Nothing but the verification goes to an address its owner never proved (ADR 046).
  if (!recipient.verified) return { outcome: 'unverified' };
  const subscriber = toProvider ? (await registrationOf(deps, state.subscriberUserId)).user.username : '';
  const content = contentFor(kind, source, subscriber, state, deps.publicUrl);
  const mail = composeSubscriptionEmail({
    company: companyOf(deps),
    language: recipient.language,
    firstName: recipient.user.firstName,
    planName: state.planName,
    url: `${deps.publicUrl}/account`,
    ...content,
  });
  const delivered = await deps.mailer.send({
    to: recipient.user.email,
    ...mail,
    messageKey: subscriptionEmailMessageKey(subscriptionId, emailId),
  });
  // Two overlapping runs may both send (same Message-ID); core records the e-mail once.
  await recordSubscriptionEmail(deps, subscriptionId, emailId, delivered.messageId);
  return { outcome: 'sent', messageId: delivered.messageId };
}

/** What the mail says, from its source event (and the subscriber's username, for the provider, and the agreed price). */
function contentFor(
  kind: SubscriptionEmailPayload['kind'],
  source: SubscriptionEvent,
  subscriber: string,
  state: SubscriptionState,
  publicUrl: string,
): SubscriptionEmail {
  if (source.type === 'SubscriptionStarted' && kind === 'newSubscriberProvider')
    return { kind, mlx: mlxFromWire(source.data.priceMlx), subscriber, chargedAt: source.data.chargedAt };
  if ((source.type === 'SubscriptionStarted' || source.type === 'SubscriptionRenewed') && kind === 'receipt') {
    const { priceMlx, period, chargedAt, paidThrough, transferId } = source.data;
    return {
      kind,
      mlx: mlxFromWire(priceMlx),
      period,
      chargedAt,
      paidThrough,
      transferId,
      receiptUrl: `${publicUrl}${receiptPath(transferId)}`,
    };
  }
  if (source.type === 'SubscriptionChargeFailed' && kind === 'chargeFailed')
    return { kind, mlx: mlxFromWire(source.data.priceMlx), nextAttemptAt: source.data.nextAttemptAt };
  if (source.type === 'SubscriptionCancelled' && kind === 'cancelledSubscriber')
    return { kind, by: source.data.by, endsAt: source.data.endsAt };
  if (source.type === 'SubscriptionCancelled' && kind === 'cancelledProvider')
    return { kind, by: source.data.by, endsAt: source.data.endsAt, subscriber };
  if (source.type === 'SubscriptionPriceChangeAnnounced' && kind === 'priceChange') {
    const { previousPriceMlx, priceMlx, effectiveFrom } = source.data;
    // The price the subscriber agreed to decides whether the mail asks for their consent (ADR 044).
    const agreedMlx = mlxFromWire(state.agreedPriceMlx);
    return { kind, previousMlx: mlxFromWire(previousPriceMlx), mlx: mlxFromWire(priceMlx), agreedMlx, effectiveFrom };
  }
  throw new UnrecoverableError(`${source.type} is not the source of a ${kind} e-mail`);
}

async function registrationOf(deps: SubscriptionJobDeps, userId: string) {
  const events = await readUserStream(deps.store, userId);
  const registered = events.find((event) => event.type === 'UserRegistered');
  if (!registered) throw new UnrecoverableError(`User ${userId} is not registered`);
  return {
    user: registered.data as UserRegistered['data'],
    language: languageIn(registered) ?? defaultLanguage,
    verified: emailVerifiedIn(events),
  };
}
