/** What the purchase jobs and the sweep share: core's purchase dependencies and Quern's PayPal client. */
import type { Logger } from '@quern/core';
import type { PurchaseDeps } from '@quern/core/purchases';
import type { PayPalClient } from '@quern/adapters/paypal';

export interface PurchaseJobDeps {
  /** The log, the clock, and (in one process with the api) the wallet serializer and state cache. */
  core: PurchaseDeps;
  paypal: Pick<PayPalClient, 'captureOrder' | 'getOrder'>;
  logger: Logger;
}
