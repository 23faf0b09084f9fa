/**
 * An in-memory LocalPayPalBrowserState for this folder's tests, recording every call so a test
 * can check what the popup's buttons did. Not the protocol server's store.
 */
import type { LocalPayPalBrowserState, LocalPayPalOrderView } from '../../src/paypal/local/browser/state.js';

export type FakeStateCall =
  | { method: 'approveOrder'; id: string; payer: { name: string; email: string } }
  | { method: 'declineCard'; id: string };

export class FakeLocalPayPalState implements LocalPayPalBrowserState {
  readonly orders = new Map<string, LocalPayPalOrderView>();
  readonly calls: FakeStateCall[] = [];

  addOrder(id: string, value = '12.34', status = 'CREATED'): void {
    this.orders.set(id, { id, status, amount: { currency_code: 'USD', value } });
  }

  async getOrder(id: string): Promise<LocalPayPalOrderView | undefined> {
    return this.orders.get(id);
  }

  async approveOrder(id: string, payer: { name: string; email: string }): Promise<void> {
    this.calls.push({ method: 'approveOrder', id, payer });
    const order = this.orders.get(id);
    if (order) order.status = 'APPROVED';
  }

  async declineCard(id: string): Promise<void> {
    this.calls.push({ method: 'declineCard', id });
    const order = this.orders.get(id);
    if (order) order.status = 'APPROVED';
  }
}
