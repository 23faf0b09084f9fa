/**
 * What the workers hand every job module's processor: built once at start from the options,
 * with the operator's settings already checked, so a module only picks what its job needs.
 */
import type { Clock, EventStore, KeyedSerializer, Logger, QuernMode } from '@quern/core';
import type { MillixNetworkPort, TransferTermsBook, WalletStateCache } from '@quern/core/wallet';
import type { PlanSubscriptions } from '../plan-price-notice/job.js';
import type { PurchaseJobDeps } from '../purchase-capture/deps.js';
import type { WebhookDeliveryDeps } from '../webhook-delivery/job.js';
import type { EmailJobDeps } from './email-job.js';
import type { NetworkWait } from './resumable.js';

export interface WorkerContext {
  store: EventStore;
  clock: Clock;
  logger: Logger;
  mode: QuernMode;
  /** The e-mail jobs' deps; their mailer adds the sandbox tag to every subject, once. */
  email: EmailJobDeps;
  /** The support mailbox contact and support messages go to. */
  supportEmail: string;
  /** The per-wallet command queue shared with the api, when there is one (a job posting on a wallet waits its turn). */
  serialize: KeyedSerializer | undefined;
  /** The wallet state cache shared with the api; used only with serialize. */
  stateCache: WalletStateCache | undefined;
  /** The reference kinds' terms the wallet folds and decides under (ADR 077). */
  transferTerms: TransferTermsBook;
  /** The millix network and the waits on it; absent, settlement and deposit confirmation do not run here. */
  network: NetworkJobsContext | undefined;
  /** PayPal and the credit's grace; absent, purchase capture and credit do not run here. */
  purchases: PurchaseJobsContext | undefined;
  webhookDelivery: WebhookDeliveryDeps;
  /** The plans' subscriptions read model; absent, the price-change announcements do not run here. */
  planSubscriptions: PlanSubscriptions | undefined;
}

export interface NetworkJobsContext {
  port: MillixNetworkPort;
  settlementWait: NetworkWait;
  depositWait: NetworkWait;
  /** Earliest settlement of a send after its reservation. */
  settlementDelayMs: number;
}

export interface PurchaseJobsContext {
  deps: PurchaseJobDeps;
  /** How long after a capture the credit is left to the buyer's browser. */
  creditGraceMs: number;
}
