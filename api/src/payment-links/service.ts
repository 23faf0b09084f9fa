/**
 * Payment links as the api offers them (ADR 084): the merchant creates, reads, lists and turns
 * them off and on (`/api/v1/payment-links` with the key, tRPC for the web app); anyone reads a
 * link's public view and makes a fresh invoice from it, at most so many per client address an hour.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '@quern/core';
import { INVOICE_EXPIRY_SECONDS_DEFAULT, type InvoiceCreateInput } from '@quern/core/invoices';
import {
  activatePaymentLink,
  createPaymentLinkOnce,
  deactivatePaymentLink,
  findPaymentLinkIdBySlug,
  merchantPaymentLinkIds,
  type PaymentLinkCreateInput,
  type PaymentLinkDeps,
  type PaymentLinkOutput,
  type PaymentLinkPayOutput,
  type PaymentLinkPublicOutput,
  type PaymentLinksList,
  type PaymentLinkState,
  paymentLinkNotFound,
  priceForVisitor,
  readPaymentLink,
  toPaymentLinkOutput,
  toPaymentLinkPublicOutput,
} from '@quern/core/payment-links';
import { loadUser } from '@quern/core/identity';
import type { WalletDeps } from '@quern/core/wallet';
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { limitWithRetryAfter } from '../identity/limits.js';
import type { InvoiceService } from '../invoices/service.js';

const HOUR_SECONDS = 60 * 60;

export interface PaymentLinkServiceDeps {
  ledger: WalletDeps;
  redis: Redis;
  invoices: InvoiceService;
  /** The public origin `/pay/{slug}` is served from. */
  publicUrl: string;
  /** Invoices one client address may make through links per hour. */
  invoicesPerIpHour: number;
  /** Redis key prefix of the limit (tests isolate theirs). */
  limitPrefix?: string;
  noteWrite?: (userId: string, position: bigint) => void;
  awaitOwnWrites?: (userId: string) => Promise<void>;
}

export type PaymentLinkService = ReturnType<typeof createPaymentLinkService>;

/** 9 random bytes as base64url: 12 URL-safe characters. */
const newSlug = (): string => randomBytes(9).toString('base64url');

export function createPaymentLinkService(deps: PaymentLinkServiceDeps) {
  const core: PaymentLinkDeps = { store: deps.ledger.store, clock: deps.ledger.clock, newSlug };
  const output = (link: PaymentLinkState): PaymentLinkOutput => toPaymentLinkOutput(link, deps.publicUrl);
  const invoicesPerIp = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.limitPrefix ?? 'rl'}:payment-link-invoice-ip`,
    points: deps.invoicesPerIpHour,
    duration: HOUR_SECONDS,
  });

  /** The merchant's own link; another merchant's answers exactly as an unknown one. */
  async function ownLink(merchantUserId: string, linkId: string): Promise<PaymentLinkState> {
    const link = await readPaymentLink(core, linkId);
    if (!link || link.merchantUserId !== merchantUserId) throw paymentLinkNotFound();
    return link;
  }

  async function linkBySlug(slug: string): Promise<PaymentLinkState> {
    const linkId = await findPaymentLinkIdBySlug(core, slug);
    const link = linkId === undefined ? undefined : await readPaymentLink(core, linkId);
    if (!link) throw paymentLinkNotFound();
    return link;
  }

  const noted = <T extends { position?: bigint }>(merchantUserId: string, written: T): T => {
    if (written.position !== undefined) deps.noteWrite?.(merchantUserId, written.position);
    return written;
  };

  return {
    async create(merchantUserId: string, idempotencyKey: string, input: PaymentLinkCreateInput): Promise<PaymentLinkOutput> {
      return output(noted(merchantUserId, await createPaymentLinkOnce(core, { merchantUserId, idempotencyKey, input })).link);
    },

    async get(merchantUserId: string, linkId: string): Promise<PaymentLinkOutput> {
      return output(await ownLink(merchantUserId, linkId));
    },

    /**
     * A page of the merchant's links, newest first. The merchant's index stream gives the ids (at
     * most PAYMENT_LINKS_PER_MERCHANT_MAX, one bounded read, written with each link, so the list
     * is the log's now) and each link on the page is folded from its stream.
     */
    async list(merchantUserId: string, page: { limit: number; startingAfter?: string }): Promise<PaymentLinksList> {
      const ids = (await merchantPaymentLinkIds(core, merchantUserId)).reverse();
      let start = 0;
      if (page.startingAfter !== undefined) {
        const at = ids.indexOf(page.startingAfter);
        if (at < 0)
          throw new AppError('VALIDATION', 'errors:paymentLinksUnknownCursor', { starting_after: 'errors:paymentLinksUnknownCursor' });
        start = at + 1;
      }
      const pageIds = ids.slice(start, start + page.limit);
      const hasMore = start + page.limit < ids.length;
      const links = await Promise.all(pageIds.map((id) => readPaymentLink(core, id)));
      const data = links.filter((link): link is PaymentLinkState => link?.merchantUserId === merchantUserId).map(output);
      const last = pageIds[pageIds.length - 1];
      return { object: 'list', data, has_more: hasMore, next_cursor: hasMore && last !== undefined ? last : null };
    },

    async deactivate(merchantUserId: string, linkId: string): Promise<PaymentLinkOutput> {
      await ownLink(merchantUserId, linkId);
      return output(noted(merchantUserId, await deactivatePaymentLink(core, linkId, merchantUserId)).link);
    },

    async activate(merchantUserId: string, linkId: string): Promise<PaymentLinkOutput> {
      await ownLink(merchantUserId, linkId);
      return output(noted(merchantUserId, await activatePaymentLink(core, linkId, merchantUserId)).link);
    },

    /** What `/pay/{slug}` shows anyone: the merchant, the description and the amount (or that it is open). */
    async view(slug: string): Promise<PaymentLinkPublicOutput> {
      const link = await linkBySlug(slug);
      const merchant = (await loadUser(deps.ledger, link.merchantUserId)).state;
      const username = merchant?.username ?? '';
      const name = merchant ? `${merchant.firstName} ${merchant.lastName}`.trim() : '';
      return toPaymentLinkPublicOutput(link, { name: name || username, username });
    },

    /**
     * A visitor's fresh invoice. Its Idempotency-Key is the link's and the visit's id, which the
     * page makes once per visit: a double click (or a retry) of one visit answers the same invoice,
     * and each other visit gets its own. The limit is counted first, so a flood is refused before
     * it reads anything.
     */
    async pay(clientAddress: string, request: { slug: string; amount?: string; visitId: string }): Promise<PaymentLinkPayOutput> {
      await limitWithRetryAfter(invoicesPerIp, clientAddress);
      const link = await linkBySlug(request.slug);
      const price = priceForVisitor(link, request.amount);
      const input: InvoiceCreateInput = {
        price: price.currency === 'MLX' ? { currency: 'MLX', amountMlx: price.units } : { currency: 'USD', usdCents: price.units },
        reference: undefined,
        description: link.description,
        metadata: { payment_link: link.linkId },
        expiresInSeconds: INVOICE_EXPIRY_SECONDS_DEFAULT,
        redirectUrl: undefined,
        customerEmail: undefined,
      };
      const invoice = await deps.invoices.create(link.merchantUserId, `payment-link:${link.linkId}:${request.visitId}`, input);
      return { invoice_id: invoice.id, hosted_url: invoice.hosted_url };
    },
  };
}
