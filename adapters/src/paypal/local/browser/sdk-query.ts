/**
 * The query string of GET /sdk/js, as @paypal/paypal-js builds it from the script options
 * (camelCase options become kebab-case parameters: clientId → client-id, enableFunding →
 * enable-funding; lists are comma-separated). Only what changes what the local SDK does is read;
 * other parameters PayPal accepts (locale, buyer-country, debug, ...) are ignored, as they
 * change nothing here.
 */

/** The funding sources the local SDK can draw a button for, in PayPal's display order. */
export const RENDERABLE_FUNDING = ['paypal', 'paylater', 'credit', 'card'] as const;
export type RenderableFunding = (typeof RENDERABLE_FUNDING)[number];

/** PayPal shows these without being asked (for a US buyer); the others need enable-funding. */
const DEFAULT_FUNDING: ReadonlySet<RenderableFunding> = new Set(['paypal', 'paylater']);

const INTENTS = new Set(['capture', 'authorize', 'subscription', 'tokenize']);
const COMPONENTS = new Set([
  'buttons',
  'marks',
  'messages',
  'funding-eligibility',
  'hosted-fields',
  'card-fields',
  'applepay',
  'googlepay',
]);

export interface LocalSdkConfig {
  clientId: string;
  currency: string;
  intent: string;
  commit: boolean;
  components: string[];
  /** Buttons the SDK draws when no standalone fundingSource is given, in this order. */
  eligibleFunding: RenderableFunding[];
}

export class SdkQueryError extends Error {
  override name = 'SdkQueryError';
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new SdkQueryError(`Expected a single value for ${name}`);
  return value;
}

function list(query: Record<string, unknown>, name: string): string[] {
  const value = single(query, name);
  if (value === undefined || value === '') return [];
  return value.split(',').map((item) => item.trim().toLowerCase());
}

/** Reads the SDK query; throws SdkQueryError with PayPal's kind of message when it is invalid. */
export function parseSdkQuery(query: Record<string, unknown>): LocalSdkConfig {
  const clientId = single(query, 'client-id');
  if (!clientId) throw new SdkQueryError('Expected client-id to be passed');

  const currency = (single(query, 'currency') ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new SdkQueryError(`Invalid currency: ${currency}`);

  const intent = (single(query, 'intent') ?? 'capture').toLowerCase();
  if (!INTENTS.has(intent)) throw new SdkQueryError(`Invalid intent: ${intent}`);

  const commit = single(query, 'commit') ?? 'true';
  if (commit !== 'true' && commit !== 'false') throw new SdkQueryError(`Invalid commit: ${commit}`);

  const components = list(query, 'components');
  for (const component of components) {
    if (!COMPONENTS.has(component)) throw new SdkQueryError(`Invalid component: ${component}`);
  }

  const enabled = new Set(list(query, 'enable-funding'));
  const disabled = new Set(list(query, 'disable-funding'));
  if (disabled.has('paypal')) throw new SdkQueryError('Invalid disable-funding: paypal can not be disabled');
  const eligibleFunding = RENDERABLE_FUNDING.filter(
    (source) => (DEFAULT_FUNDING.has(source) || enabled.has(source)) && !disabled.has(source),
  );

  return {
    clientId,
    currency,
    intent,
    commit: commit === 'true',
    components: components.length ? components : ['buttons'],
    eligibleFunding,
  };
}
