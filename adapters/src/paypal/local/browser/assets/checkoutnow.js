/**
 * The approval popup's script (GET /checkoutnow.js; the page's CSP allows no inline script).
 * Each button POSTs the choice to the local server, then posts the result to the shop page that
 * opened the popup, at the origin the SDK passed in the URL (the popup cannot read its opener's
 * origin, and the shop's Referrer-Policy may hide it). The SDK closes the popup once the shop's
 * onApprove has run; a popup opened by hand just shows the result.
 */
(() => {
  const MESSAGE_SOURCE = 'quern-local-paypal';
  const body = document.body;
  const orderID = body.getAttribute('data-token');
  const openerOrigin = body.getAttribute('data-opener-origin');
  const status = document.getElementById('status');
  const buttons = document.querySelectorAll('button[data-action]');

  function tell(message) {
    status.textContent = message;
  }

  function setBusy(busy) {
    for (const button of buttons) button.disabled = busy;
  }

  function answerOpener(result) {
    if (!window.opener || !openerOrigin) return false;
    window.opener.postMessage(Object.assign({ source: MESSAGE_SOURCE, orderID: orderID }, result), openerOrigin);
    return true;
  }

  async function choose(action) {
    setBusy(true);
    tell(body.getAttribute('data-text-working'));
    try {
      if (action === 'cancel') {
        answerOpener({ approved: false });
        window.close();
        return;
      }
      const response = await fetch(`checkoutnow/${action}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: orderID }),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const answer = await response.json();
      const sent = answerOpener({ approved: true, payerID: answer.payerID, declined: action === 'decline' });
      tell(body.getAttribute(sent ? 'data-text-returning' : 'data-text-done'));
    } catch (error) {
      tell(`${body.getAttribute('data-text-failed')} (${error.message})`);
      setBusy(false);
    }
  }

  for (const button of buttons) button.addEventListener('click', choose.bind(null, button.getAttribute('data-action')));
})();
