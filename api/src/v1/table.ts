/** Every /api/v1 operation, in the order the reference lists them. Each slice declares its own. */
import { checkoutV1Routes } from '../checkout/v1-routes.js';
import { directV1Routes } from '../direct/v1-routes.js';
import { paymentsV1Routes } from '../payments/v1-routes.js';
import { payoutV1Routes } from '../payouts/v1-routes.js';
import { refundV1Routes } from '../refunds/v1-routes.js';
import { webhookV1Routes } from '../webhooks/v1-routes.js';
import type { V1Route } from './route.js';

export const v1RouteTable: readonly V1Route[] = [
  ...directV1Routes,
  ...checkoutV1Routes,
  ...paymentsV1Routes,
  ...refundV1Routes,
  ...payoutV1Routes,
  ...webhookV1Routes,
];
