// Proves the shop SDK (api/src/http/sdk/checkout.js, served by the api) on a page in jsdom: Quern's origin comes from the script's own src;
// Quern.button places the /checkout-buttons frame; only a click message from Quern's origin and
// from that frame opens the /checkout popup with the order in its query; only the popup's checkout
// message from Quern's origin and from that popup reaches onResult; bad options are refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const QUERN = 'https://quern.example';
const source = readFileSync(join(import.meta.dirname, '../../../api/src/http/sdk/checkout.js'), 'utf8');

interface QuernSdk {
  origin: string;
  button(element: Element, options: Record<string, unknown>): { destroy(): void };
  checkoutUrl(options: Record<string, unknown>): string;
}
const sdk = () => (window as unknown as { Quern: QuernSdk }).Quern;

const order = { to: 'shop_one', cart: [{ name: 'Tea', price: '100', quantity: 2 }], price: '200', redirect: 'https://shop.example/thanks' };

function message(data: unknown, origin: string, source: Window | null) {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
}
const click = { origin: QUERN, url: `${QUERN}/checkout-buttons`, target: 'checkout_button', event: 'click', timestamp: 1 };
const paid = {
  origin: QUERN,
  url: `${QUERN}/checkout`,
  target: 'checkout_window',
  event: 'checkout',
  success: true,
  token: 't',
  order: 'o',
  timestamp: 2,
};

/** A real window object to stand for the popup (jsdom's MessageEvent wants a real source). */
function fakePopup(): Window {
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  return frame.contentWindow as Window;
}

beforeEach(() => {
  document.body.innerHTML = `<script src="${QUERN}/sdk/checkout.js?v=1"></script><div id="pay"></div>`;
  new Function(source)();
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('shop SDK', () => {
  it("takes Quern's origin from its own script tag", () => {
    expect(sdk().origin).toBe(QUERN);
  });

  it('builds the /checkout address with cart as JSON and the other fields as given', () => {
    const url = new URL(sdk().checkoutUrl(order));
    expect(url.origin + url.pathname).toBe(`${QUERN}/checkout`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      cart: JSON.stringify(order.cart),
      price: '200',
      currency: 'MLX',
      to: 'shop_one',
      redirect: 'https://shop.example/thanks',
    });
  });

  it('places the button frame, and only a click message from that frame at Quern opens the popup', () => {
    const popup = fakePopup();
    const open = vi.spyOn(window, 'open').mockReturnValue(popup);
    const host = document.getElementById('pay') as HTMLElement;
    sdk().button(host, order);
    const frame = host.querySelector('iframe') as HTMLIFrameElement;
    expect(frame.src).toBe(`${QUERN}/checkout-buttons`);

    message(click, 'https://evil.example', frame.contentWindow);
    message(click, QUERN, fakePopup());
    message({ ...click, event: 'hover' }, QUERN, frame.contentWindow);
    expect(open).not.toHaveBeenCalled();

    message(click, QUERN, frame.contentWindow);
    expect(open).toHaveBeenCalledTimes(1);
    expect(open.mock.calls[0]?.[0]).toBe(sdk().checkoutUrl(order));
  });

  it('hands only the popup’s checkout message, from Quern, to onResult', () => {
    const popup = fakePopup();
    vi.spyOn(window, 'open').mockReturnValue(popup);
    const onResult = vi.fn();
    const host = document.getElementById('pay') as HTMLElement;
    sdk().button(host, { ...order, onResult });
    const frame = host.querySelector('iframe') as HTMLIFrameElement;

    message(paid, QUERN, popup);
    expect(onResult).not.toHaveBeenCalled(); // no popup opened yet

    message(click, QUERN, frame.contentWindow);
    message(paid, 'https://evil.example', popup);
    message(paid, QUERN, frame.contentWindow);
    message(paid, QUERN, fakePopup());
    expect(onResult).not.toHaveBeenCalled();

    message(paid, QUERN, popup);
    expect(onResult).toHaveBeenCalledWith({ success: true, token: 't', order: 'o', message: paid });
  });

  it('destroy removes the frame and stops listening', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(fakePopup());
    const host = document.getElementById('pay') as HTMLElement;
    const placed = sdk().button(host, order);
    const frame = host.querySelector('iframe') as HTMLIFrameElement;
    const frameWindow = frame.contentWindow;
    placed.destroy();
    expect(host.querySelector('iframe')).toBeNull();
    message(click, QUERN, frameWindow);
    expect(open).not.toHaveBeenCalled();
  });

  it('refuses a missing element, merchant, cart or price', () => {
    const host = document.getElementById('pay') as HTMLElement;
    expect(() => sdk().button(null as unknown as Element, order)).toThrow(/element/);
    expect(() => sdk().button(host, { ...order, to: '' })).toThrow(/`to`/);
    expect(() => sdk().button(host, { ...order, cart: [] })).toThrow(/`cart`/);
    expect(() => sdk().button(host, { ...order, price: undefined })).toThrow(/`price`/);
  });
});
