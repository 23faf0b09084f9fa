/**
 * The millix node's notification of a new transaction (its EXTERNAL_API_NOTIFICATION call:
 * GET ?p0=<transaction id>&p1=transaction_new). It carries no amounts, so the outputs are read
 * back from the node: a forged notification cannot invent a deposit. Mounted only when Quern
 * talks to a real node.
 */
import { Router } from 'express';
import { AppError } from '@quern/core';
import { recordIncomingTransaction, type WalletDeps } from '@quern/core/wallet';
import { parseNodeNotification, type OpenedMillixNetwork } from '@quern/adapters/millix';

export const NODE_NOTIFICATION_PATH = '/api/millix/node-notification';

export function nodeNotificationRoutes(
  walletDeps: Pick<WalletDeps, 'store' | 'clock' | 'transferTerms'>,
  network: Required<Pick<OpenedMillixNetwork, 'incomingFromNotification'>>,
): Router {
  const routes = Router();
  routes.get(NODE_NOTIFICATION_PATH, async (req, res, next) => {
    try {
      const notification = parseNodeNotification(req.query);
      if (notification instanceof Error) throw new AppError('VALIDATION', 'errors:invalidRequest');
      const incoming = await network.incomingFromNotification(notification);
      const outcomes = [];
      for (const transaction of incoming) outcomes.push(await recordIncomingTransaction(walletDeps, transaction));
      res.json({ api_status: 'success', outputs: outcomes.length });
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
