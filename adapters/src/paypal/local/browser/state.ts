/**
 * What the browser half of the local PayPal server needs from the order store. The protocol
 * server (adapters/src/paypal/local/*.ts) implements it over the same orders its REST API
 * creates and captures; tests use an in-memory fake.
 */
export interface LocalPayPalOrderView {
  id: string;
  status: string;
  amount: { currency_code: string; value: string };
}

export interface LocalPayPalBrowserState {
  getOrder(id: string): Promise<LocalPayPalOrderView | undefined>;
  approveOrder(id: string, payer: { name: string; email: string }): Promise<void>;
  /** The next capture fails INSTRUMENT_DECLINED; then the order can be approved again. */
  declineCard(id: string): Promise<void>;
}

/**
 * The one buyer of the local server. PayPal's payer id is a 13-character account id; a fixed
 * one keeps test output stable.
 */
export const LOCAL_BUYER = { name: 'Local Buyer', email: 'buyer@example.test', payerId: 'LOCALBUYER001' } as const;

/** Statuses in which PayPal still shows the buyer the approval page. */
export const APPROVABLE_STATUSES: ReadonlySet<string> = new Set(['CREATED', 'APPROVED', 'PAYER_ACTION_REQUIRED']);

/**
 * Who may approve or decline an order on the approval page: the deployment that mounts the server
 * answers from the request (e.g. its own sign-in session must be the order's buyer). Without a
 * guard, anyone who opens the page may (the stand-in on its own, in tests).
 */
export type PayerCheck = { allowed: true } | { allowed: false; reason: 'signedOut' | 'notBuyer' };
export type PayerGuard = (request: { get(name: string): string | undefined }, orderId: string) => Promise<PayerCheck>;
