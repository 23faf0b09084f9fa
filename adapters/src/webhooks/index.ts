/** Webhook delivery: where a webhook may go, and one signed attempt (ADR 035). */
export { checkWebhookTarget, checkWebhookUrl, isPublicAddress, resolveHost, type Resolve } from './addresses.js';
export { sendWebhookAttempt, signWebhook, type WebhookAttemptInput, type WebhookAttemptResult } from './sender.js';
