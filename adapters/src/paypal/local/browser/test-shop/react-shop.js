/**
 * The browser test's React shop: Quern's Buy screen's way of using PayPal
 * (@paypal/react-paypal-js's PayPalScriptProvider + PayPalButtons, pointed at the local server
 * with sdkBaseUrl). Bundled by the test with esbuild; records callbacks in window.shopEvents.
 */
import { PayPalButtons, PayPalScriptProvider } from '@paypal/react-paypal-js';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const shop = document.getElementById('shop');
const events = [];
window.shopEvents = events;

const options = {
  clientId: 'shop-client',
  sdkBaseUrl: shop.getAttribute('data-sdk-base-url'),
  currency: 'USD',
  intent: 'capture',
  components: 'buttons',
  enableFunding: 'card',
  disableFunding: 'paylater',
};

const buttons = createElement(PayPalButtons, {
  style: { layout: 'vertical' },
  onInit: () => events.push({ type: 'rendered' }),
  createOrder: async (data) => {
    events.push({ type: 'createOrder', paymentSource: data.paymentSource });
    const response = await fetch('/create-order', { method: 'POST' });
    return (await response.json()).id;
  },
  onApprove: async (data) => {
    events.push({ type: 'approve', data: data });
    events.push({ type: 'captured', orderID: data.orderID });
  },
  onCancel: (data) => events.push({ type: 'cancel', data: data }),
  onError: (error) => events.push({ type: 'error', message: String(error?.message) }),
});

createRoot(document.getElementById('buttons')).render(createElement(PayPalScriptProvider, { options: options }, buttons));
