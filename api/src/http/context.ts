/** What every tRPC procedure and REST handler gets for one request. */
import type { Request, Response } from 'express';
import type { Language } from '@quern/core/i18n';
import type { MerchantKeysService } from '../merchant-keys/service.js';
import type { IdentityService } from '../identity/service.js';
import type { Session } from '../identity/sessions.js';
import type { CheckoutService } from '../checkout/service.js';
import type { ContactService } from '../contact/service.js';
import type { PayoutService } from '../payouts/service.js';
import type { PaymentsService } from '../payments/service.js';
import type { PlanService } from '../plans/service.js';
import type { SubscriptionService } from '../subscriptions/service.js';
import type { PurchaseService } from '../purchases/service.js';
import type { RefundService } from '../refunds/service.js';
import type { WalletService } from '../wallet/service.js';
import type { WebhookService } from '../webhooks/service.js';

export interface HttpExchange {
  req: Request;
  res: Response;
}

export interface RequestContext {
  http: HttpExchange;
  language: Language;
  /** The caller's session, looked up once per request. */
  getSession(): Promise<Session | undefined>;
  identity: IdentityService;
  wallet: WalletService;
  purchases: PurchaseService;
  checkout: CheckoutService;
  refunds: RefundService;
  payouts: PayoutService;
  merchantKeys: MerchantKeysService;
  webhooks: WebhookService;
  payments: PaymentsService;
  plans: PlanService;
  subscriptions: SubscriptionService;
  contact: ContactService;
}
