/**
 * The browser test's shop page script: renders the PayPal buttons as a merchant page would and
 * records every callback in window.shopEvents for the test to read. Its configuration comes from
 * the #shop element's data attributes (the page's CSP allows no inline script).
 *
 * data-loader: 'tag' (the SDK <script> is already in the page) or 'paypal-js' (load it with
 * @paypal/paypal-js's loadScript, as @paypal/react-paypal-js does).
 * data-restart-declined: when 'true', onApprove answers a declined card with actions.restart().
 */
(() => {
  const shop = document.getElementById('shop');
  const events = [];
  window.shopEvents = events;

  function buttonOptions() {
    let approvals = 0;
    return {
      onInit: () => events.push({ type: 'init' }),
      onClick: (data) => {
        events.push({ type: 'click', fundingSource: data.fundingSource });
        return shop.getAttribute('data-click-refuses') !== 'true';
      },
      createOrder: async (data) => {
        events.push({ type: 'createOrder', paymentSource: data.paymentSource });
        const response = await fetch('/create-order', { method: 'POST' });
        const body = await response.json();
        return body.id;
      },
      onApprove: async (data, actions) => {
        approvals += 1;
        events.push({ type: 'approve', data: data });
        // The shop captures on its server; a declined card is PayPal's INSTRUMENT_DECLINED.
        const response = await fetch(`/capture?order=${encodeURIComponent(data.orderID)}`, { method: 'POST' });
        const body = await response.json();
        if (body.declined && shop.getAttribute('data-restart-declined') === 'true' && approvals === 1) {
          events.push({ type: 'restart' });
          return actions.restart();
        }
        events.push({ type: 'captured', orderID: data.orderID, declined: body.declined });
      },
      onCancel: (data) => events.push({ type: 'cancel', data: data }),
      onError: (error) => events.push({ type: 'error', message: String(error?.message) }),
    };
  }

  async function start() {
    let paypal = window.paypal;
    if (shop.getAttribute('data-loader') === 'paypal-js') {
      paypal = await window.paypalLoadScript({
        clientId: 'shop-client',
        sdkBaseUrl: shop.getAttribute('data-sdk-base-url'),
        currency: 'USD',
        intent: 'capture',
        components: 'buttons',
        enableFunding: 'card',
        disableFunding: 'paylater',
        dataNamespace: 'paypalLocal',
        dataSdkIntegrationSource: 'react-paypal-js',
      });
      events.push({ type: 'loaded', sameAsWindow: paypal === window.paypalLocal, version: paypal.version });
    }
    events.push({ type: 'funding', sources: paypal.getFundingSources(), card: paypal.isFundingEligible(paypal.FUNDING.CARD) });
    await paypal.Buttons(buttonOptions()).render('#buttons');
    events.push({ type: 'rendered' });
  }

  start().catch((error) => events.push({ type: 'startError', message: String(error?.message) }));
})();
