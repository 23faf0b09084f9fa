/**
 * The local PayPal JS SDK: what GET /sdk/js serves, wrapped by the server in
 * `(function () { <this file> quernLocalPayPalSdk(<config JSON>, document.currentScript); })();`.
 * Plain browser JavaScript (no build step, no framework), so the served file is exactly this one.
 *
 * It defines window.paypal (or the namespace in the script's data-namespace) with the part of
 * PayPal's v5 SDK that @paypal/paypal-js and @paypal/react-paypal-js call: version, FUNDING,
 * getFundingSources, isFundingEligible, rememberFunding and Buttons(options) →
 * { render, isEligible, close, updateProps, hasReturned, resume }.
 *
 * Checkout follows PayPal's popup flow: the popup is opened synchronously in the click (so no
 * popup blocker refuses it), then createOrder runs and the popup is sent to
 * <sdk base>/checkoutnow?token=<order id>&origin=<this page's origin>. The popup posts its
 * result back; the popup stays open (showing "returning to the shop") while onApprove runs, so
 * that actions.restart() can send the same window back to the approval page without a new
 * window.open outside a click. The SDK closes it when onApprove settles.
 */
// biome-ignore lint/correctness/noUnusedVariables: called by the wrapper the server adds around this file.
function quernLocalPayPalSdk(config, currentScript) {
  const MESSAGE_SOURCE = 'quern-local-paypal';
  /** How often a checkout checks whether the buyer closed the popup: there is no event for it. */
  const POPUP_CLOSED_POLL_MS = 200;
  const POPUP_NAME_PREFIX = 'quern_local_paypal_';
  const POPUP_FEATURES = 'popup=yes,width=500,height=640';

  const FUNDING = {
    PAYPAL: 'paypal',
    VENMO: 'venmo',
    APPLEPAY: 'applepay',
    ITAU: 'itau',
    CREDIT: 'credit',
    PAYLATER: 'paylater',
    CARD: 'card',
    IDEAL: 'ideal',
    SEPA: 'sepa',
    BANCONTACT: 'bancontact',
    GIROPAY: 'giropay',
    SOFORT: 'sofort',
    EPS: 'eps',
    MYBANK: 'mybank',
    P24: 'p24',
    PAYU: 'payu',
    BLIK: 'blik',
    TRUSTLY: 'trustly',
    OXXO: 'oxxo',
    BOLETO: 'boleto',
    BOLETOBANCARIO: 'boletobancario',
    WECHATPAY: 'wechatpay',
    MERCADOPAGO: 'mercadopago',
    MULTIBANCO: 'multibanco',
    SATISPAY: 'satispay',
    PAIDY: 'paidy',
    ZIMPLER: 'zimpler',
    MAXIMA: 'maxima',
  };
  const FUNDING_VALUES = Object.keys(FUNDING).map((key) => FUNDING[key]);

  /** Accessible names, as PayPal labels its buttons. */
  const LABELS = { paypal: 'PayPal', paylater: 'Pay Later', credit: 'PayPal Credit', card: 'Debit or Credit Card' };

  // Everything after /sdk/js is relative to where this script came from, so the local server can
  // be mounted under a prefix or on its own port.
  const scriptUrl = new URL(currentScript.src, document.baseURI);
  const sdkOrigin = scriptUrl.origin;
  const sdkBase = scriptUrl.href.slice(0, scriptUrl.href.indexOf('/sdk/js'));
  const namespace = currentScript.getAttribute('data-namespace') || 'paypal';
  /** Every checkout popup of this page, closed if the page goes away. */
  const openPopups = new Set();

  function isThenable(value) {
    return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function';
  }

  function toError(value) {
    return value instanceof Error ? value : new Error(String(value));
  }

  function checkoutUrl(orderID) {
    return `${sdkBase}/checkoutnow?token=${encodeURIComponent(orderID)}&origin=${encodeURIComponent(window.location.origin)}`;
  }

  function notSupported(name) {
    return () => Promise.reject(new Error(`${name} is not supported by the local PayPal server: call your server instead`));
  }

  function Buttons(initialOptions) {
    let options = initialOptions || {};
    const fundingSource = options.fundingSource;
    if (fundingSource !== undefined && FUNDING_VALUES.indexOf(fundingSource) === -1) {
      throw new Error(`Invalid funding source: ${fundingSource}`);
    }
    let container = null;
    let closed = false;
    let disabled = false;
    let popup = null;

    function report(error) {
      if (typeof options.onError === 'function') options.onError(toError(error));
      else console.error('[local PayPal]', error);
    }

    function sources() {
      if (fundingSource !== undefined) return config.eligibleFunding.indexOf(fundingSource) === -1 ? [] : [fundingSource];
      return config.eligibleFunding.slice();
    }

    function openPopup() {
      if (popup && !popup.closed) return popup;
      popup = window.open('', POPUP_NAME_PREFIX + Date.now(), POPUP_FEATURES);
      if (popup === null) throw new Error('The PayPal popup was blocked: allow popups for this site');
      openPopups.add(popup);
      return popup;
    }

    function closePopup() {
      if (popup && !popup.closed) popup.close();
      openPopups.delete(popup);
      popup = null;
    }

    /**
     * Sends the popup to the approval page and waits for its answer: the message it posts, or
     * its closing. Only a message from that window, from the SDK's origin, about this order
     * counts: any page can post messages to this one.
     */
    function waitForApproval(orderID) {
      const window_ = openPopup();
      window_.location.href = checkoutUrl(orderID);
      return new Promise((resolve) => {
        function finish(result) {
          window.removeEventListener('message', onMessage);
          clearInterval(timer);
          resolve(result);
        }
        function onMessage(event) {
          const data = event.data;
          if (event.source !== window_ || event.origin !== sdkOrigin) return;
          if (!data || data.source !== MESSAGE_SOURCE || data.orderID !== orderID) return;
          finish(data);
        }
        const timer = setInterval(() => {
          if (window_.closed) finish(null);
        }, POPUP_CLOSED_POLL_MS);
        window.addEventListener('message', onMessage);
      });
    }

    function cancel(orderID) {
      closePopup();
      if (typeof options.onCancel === 'function') {
        options.onCancel({ orderID: orderID }, { redirect: (url) => window.location.assign(url) });
      }
    }

    /** One approval of the order, and again each time onApprove calls actions.restart(). */
    async function approve(orderID, source) {
      for (;;) {
        const result = await waitForApproval(orderID);
        if (closed) return closePopup();
        if (result === null || result.approved !== true) return cancel(orderID);
        let restartRequested = false;
        const actions = {
          order: {
            capture: notSupported('actions.order.capture'),
            authorize: notSupported('actions.order.authorize'),
            get: notSupported('actions.order.get'),
            patch: notSupported('actions.order.patch'),
          },
          redirect: (url) => window.location.assign(url),
          restart: () => {
            restartRequested = true;
            return Promise.resolve();
          },
        };
        const data = {
          orderID: orderID,
          payerID: result.payerID,
          paymentID: null,
          billingToken: null,
          facilitatorAccessToken: `A21AA.local.${config.clientId}`,
          paymentSource: source,
        };
        if (typeof options.onApprove === 'function') await options.onApprove(data, actions);
        if (!restartRequested) return closePopup();
      }
    }

    async function checkout(source) {
      if (popup && !popup.closed) return popup.focus();
      let rejected = false;
      const clickActions = {
        reject: () => {
          rejected = true;
          return Promise.resolve();
        },
        resolve: () => Promise.resolve(),
      };
      let clicked;
      try {
        clicked = typeof options.onClick === 'function' ? options.onClick({ fundingSource: source }, clickActions) : undefined;
      } catch (error) {
        return report(error);
      }
      if (disabled) return;
      if (!isThenable(clicked) && (clicked === false || rejected)) return;
      let orderID;
      try {
        openPopup();
        if (isThenable(clicked) && ((await clicked) === false || rejected)) return closePopup();
        if (typeof options.createOrder !== 'function') throw new Error('Expected createOrder to be passed to paypal.Buttons');
        const createActions = { order: { create: notSupported('actions.order.create') } };
        orderID = await options.createOrder({ paymentSource: source }, createActions);
        if (typeof orderID !== 'string' || orderID === '') throw new Error('Expected an order id to be returned from createOrder');
        await approve(orderID, source);
      } catch (error) {
        closePopup();
        report(error);
      }
    }

    function draw(target) {
      const wrapper = document.createElement('div');
      wrapper.className = 'paypal-buttons quern-local-paypal-buttons';
      wrapper.style.display = 'flex';
      wrapper.style.flexDirection = 'column';
      wrapper.style.gap = '8px';
      for (const source of sources()) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = LABELS[source];
        button.setAttribute('data-funding-source', source);
        button.style.minHeight = '44px';
        button.style.cursor = 'pointer';
        button.addEventListener('click', checkout.bind(null, source));
        wrapper.appendChild(button);
      }
      target.appendChild(wrapper);
      container = wrapper;
    }

    const initActions = {
      enable: () => {
        disabled = false;
        return Promise.resolve();
      },
      disable: () => {
        disabled = true;
        return Promise.resolve();
      },
    };

    return {
      isEligible: () => sources().length > 0,
      render: (target) => {
        if (closed) return Promise.reject(new Error('Buttons were closed'));
        const element = typeof target === 'string' ? document.querySelector(target) : target;
        if (!element) return Promise.reject(new Error(`Document is ready and element ${target} does not exist`));
        if (sources().length === 0) return Promise.reject(new Error(`${fundingSource} is not eligible`));
        draw(element);
        if (typeof options.onInit === 'function') options.onInit({}, initActions);
        return Promise.resolve();
      },
      close: () => {
        closed = true;
        closePopup();
        if (container) container.remove();
        container = null;
        return Promise.resolve();
      },
      updateProps: (props) => {
        // Callbacks are read at each click, so new ones take effect without redrawing.
        options = Object.assign({}, options, props);
        return Promise.resolve();
      },
      hasReturned: () => false,
      resume: () => undefined,
    };
  }

  // A checkout popup left open when the shop page goes away would wait for an answer no one reads.
  window.addEventListener('pagehide', () => {
    for (const window_ of openPopups) window_.close();
  });

  window[namespace] = {
    version: `5.0.0-quern-local`,
    FUNDING: FUNDING,
    Buttons: config.components.indexOf('buttons') === -1 ? undefined : Buttons,
    getFundingSources: () => config.eligibleFunding.slice(),
    isFundingEligible: (source) => config.eligibleFunding.indexOf(source) !== -1,
    rememberFunding: () => undefined,
  };
}
