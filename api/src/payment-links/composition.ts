/** The payment links service, from the composition context and the wallet's and invoices' services (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { InvoiceService } from '../invoices/service.js';
import type { WalletService } from '../wallet/service.js';
import { createPaymentLinkService, type PaymentLinkService } from './service.js';

// Every request's context carries it as ctx.paymentLinks.
declare module '../http/context.js' {
  interface ApiServices {
    paymentLinks: PaymentLinkService;
  }
}

export const composePaymentLinksService = (
  { ledger, redis, config }: CompositionContext,
  { wallet, invoices }: { wallet: WalletService; invoices: InvoiceService },
) => ({
  paymentLinks: createPaymentLinkService({
    ledger,
    redis,
    invoices,
    publicUrl: config.publicUrl,
    invoicesPerIpHour: config.PAYMENT_LINK_INVOICES_PER_IP_HOUR,
    noteWrite: (userId, position) => wallet.noteWrite(userId, position),
    awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId),
  }),
});
