/** The purchase capture's registration (ADR 026, 072): it runs only where PayPal is given. */
import type { JobModule } from '../job/job-module.js';
import { capturePurchase } from './job.js';
import { PURCHASE_CAPTURE_QUEUE } from './payload.js';
import { purchaseCaptureRule } from './rules.js';

export const purchaseCaptureModule: JobModule = {
  queue: PURCHASE_CAPTURE_QUEUE,
  rules: [purchaseCaptureRule],
  processor: ({ purchases }) => purchases && { process: (job) => capturePurchase(job.data, purchases.deps) },
};
