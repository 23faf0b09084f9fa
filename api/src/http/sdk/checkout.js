/*
 * Quern checkout for shops (ADR 031). Include
 *   <script src="https://<quern>/sdk/checkout.js"></script>
 * and call
 *   Quern.button(element, { to, cart, price, currency: 'MLX', reference, redirect, onResult(result) })
 * It places Quern's button (an iframe of /checkout-buttons) in `element`. The button's click
 * message opens the /checkout popup with the order in its query; the popup's `checkout` message
 * (success, token, order) goes to onResult. Messages are believed only from Quern's origin (taken
 * from this script's own src) and from the frame or popup this script made. The token proves
 * nothing until the shop's server verifies it: POST /api/v1/orders/verify with the shop's API key
 * and the shop's own order `reference`, checking amount and reference, and fulfilling each order once.
 * Plain JavaScript (ES2020) with no dependencies, so it runs on any shop page as it is.
 */
((window, document) => {
  const SCRIPT_PATH = /\/sdk\/checkout\.js(?:[?#]|$)/;
  const POPUP_FEATURES = 'popup,width=480,height=720';
  /** The shop's order reference, as Quern accepts it (core/src/checkout/contracts.ts). */
  const REFERENCE_PATTERN = /^[A-Za-z0-9._:/#-]{1,64}$/;

  /** The origin this script was loaded from: Quern's, whatever page includes it. */
  function scriptOrigin() {
    // Loaded asynchronously, currentScript is null: then find our tag by its path.
    const script = document.currentScript || Array.from(document.getElementsByTagName('script')).find((s) => SCRIPT_PATH.test(s.src));
    if (!script?.src) throw new Error('Quern: cannot tell where checkout.js was loaded from');
    return new URL(script.src, document.baseURI).origin;
  }

  const QUERN_ORIGIN = scriptOrigin();

  /** The /checkout address for an order: cart as JSON, the other fields as they are (spec section 2). */
  function checkoutUrl(options) {
    const query = new URLSearchParams();
    query.set('cart', JSON.stringify(options.cart));
    query.set('price', String(options.price));
    query.set('currency', options.currency || 'MLX');
    query.set('to', options.to);
    for (const name of ['reference', 'redirect', 'variant', 'version']) if (options[name]) query.set(name, String(options[name]));
    return `${QUERN_ORIGIN}/checkout?${query.toString()}`;
  }

  function checkOptions(options) {
    if (!options || typeof options !== 'object') throw new TypeError('Quern.button: options are required');
    if (!options.to) throw new TypeError("Quern.button: `to` (the shop's Quern username or e-mail) is required");
    if (!options.cart?.length) throw new TypeError('Quern.button: `cart` needs at least one item');
    if (options.price === undefined || options.price === null || options.price === '')
      throw new TypeError('Quern.button: `price` is required');
    if (options.reference !== undefined && !REFERENCE_PATTERN.test(String(options.reference)))
      throw new TypeError('Quern.button: `reference` must be 1 to 64 letters, digits or the characters . _ - : / #');
  }

  /** Places the button in `element` and wires it; returns { destroy } to take it away again. */
  function button(element, options) {
    if (typeof element?.appendChild !== 'function') throw new TypeError('Quern.button: an element is required');
    checkOptions(options);
    const frame = document.createElement('iframe');
    frame.src = `${QUERN_ORIGIN}/checkout-buttons`;
    frame.title = options.title || 'Quern checkout';
    frame.width = String(options.width || 200);
    frame.height = String(options.height || 64);
    frame.style.border = '0';
    frame.style.background = 'transparent';
    element.appendChild(frame);
    let popup = null;

    function onMessage(event) {
      if (event.origin !== QUERN_ORIGIN) return;
      const data = event.data || {};
      if (event.source === frame.contentWindow && data.target === 'checkout_button' && data.event === 'click') {
        popup = window.open(checkoutUrl(options), 'quern_checkout', POPUP_FEATURES);
        popup?.focus();
        if (typeof options.onClick === 'function') options.onClick(data);
        return;
      }
      if (popup && event.source === popup && data.target === 'checkout_window' && data.event === 'checkout') {
        if (typeof options.onResult === 'function')
          options.onResult({ success: data.success === true, token: data.token, order: data.order, message: data });
      }
    }

    window.addEventListener('message', onMessage);
    return {
      destroy() {
        window.removeEventListener('message', onMessage);
        frame.remove();
      },
    };
  }

  window.Quern = { origin: QUERN_ORIGIN, button, checkoutUrl };
})(window, document);
