/** Wallet procedures for the web app; each is a thin call into the wallet service. */
import {
  addressOutput,
  receiveInput,
  receiveOutput,
  balanceOutput,
  IDEMPOTENCY_KEY_PATTERN,
  purchaseHoldOutput,
  rateOutput,
  recipientLookupInput,
  recipientLookupOutput,
  sendInput,
  sendOutput,
} from '@quern/core/wallet';
import { z } from 'zod';
import { clientAddressForLimits } from '../http/client-address.js';
import { authedProcedure, router } from '../trpc/init.js';
import {
  pendingTransactionsOutput,
  transactionByHashOutput,
  transactionByHashQuery,
  transactionsPageOutput,
  transactionsPageQuery,
} from '@quern/core/history';

const sendWithKey = sendInput.extend({
  idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN, { error: 'errors:invalidRequest' }).optional(),
});

// Each answer is checked against the contract's output schema (core), so a read model that
// drifts from the spec's shapes fails loudly (a logged 500) instead of reaching the dashboard.
export const walletRouter = router({
  address: authedProcedure.output(addressOutput).query(({ ctx }) => ctx.wallet.address(ctx.session)),
  receive: authedProcedure
    .input(receiveInput)
    .output(receiveOutput)
    .query(({ ctx, input }) => ctx.wallet.receive(ctx.session, input.amount)),
  balance: authedProcedure.output(balanceOutput).query(({ ctx }) => ctx.wallet.balance(ctx.session)),
  purchaseHold: authedProcedure.output(purchaseHoldOutput).query(({ ctx }) => ctx.wallet.purchaseHold(ctx.session)),
  rate: authedProcedure.output(rateOutput).query(({ ctx }) => ctx.wallet.rate()),
  pending: authedProcedure.output(pendingTransactionsOutput).query(({ ctx }) => ctx.wallet.pending(ctx.session)),
  transactions: authedProcedure
    .input(transactionsPageQuery)
    .output(transactionsPageOutput)
    .query(({ ctx, input }) => ctx.wallet.transactions(ctx.session, input.page, input.filter)),
  recipient: authedProcedure
    .input(recipientLookupInput)
    .output(recipientLookupOutput)
    .query(({ ctx, input }) => ctx.wallet.recipient(ctx.session, clientAddressForLimits(ctx.http.req), input.to)),
  transaction: authedProcedure
    .input(transactionByHashQuery)
    .output(transactionByHashOutput)
    .query(({ ctx, input }) => ctx.wallet.transaction(ctx.session, input.hash)),
  send: authedProcedure
    .input(sendWithKey)
    .output(sendOutput)
    .mutation(({ ctx, input }) => ctx.wallet.send(ctx.session, input, input.idempotencyKey)),
});
