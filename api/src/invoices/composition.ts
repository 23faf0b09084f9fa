/** The invoices service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createInvoiceService, type InvoiceService } from './service.js';

// Every request's context carries it as ctx.invoices.
declare module '../http/context.js' {
  interface ApiServices {
    invoices: InvoiceService;
  }
}

export const composeInvoicesService = (
  { ledger, redis, config, appSecret }: CompositionContext,
  { wallet }: { wallet: WalletService },
) => ({
  invoices: createInvoiceService({
    ledger,
    redis,
    publicUrl: config.publicUrl,
    appSecret,
    noteWrite: (userId, position) => wallet.noteWrite(userId, position),
    awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId),
  }),
});
