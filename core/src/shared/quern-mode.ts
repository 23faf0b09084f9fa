/**
 * The mode a Quern runs in (QUERN_MODE): 'sandbox' moves test money only (the stand-ins are
 * allowed), 'live' moves real money. The composition root passes it down as `mode` to whatever
 * shows it: API key prefixes, `livemode` on API objects and webhooks, e-mail subjects (ADR 050).
 */
export type QuernMode = 'sandbox' | 'live';

/** `livemode` as the merchant API and webhooks carry it (Stripe's name for the same flag). */
export const isLivemode = (mode: QuernMode): boolean => mode === 'live';

/**
 * Marks the sandbox banner's element in the web app's pages (web/src/features/shell/SandboxBanner.tsx);
 * the server finds it by this attribute to remove it from a live Quern's pages (api/src/http/web/quern-mode.ts).
 */
export const SANDBOX_BANNER_ATTRIBUTE = 'data-quern-sandbox-banner';
