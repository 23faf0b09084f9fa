/**
 * The code shown on /developers, for the Quern the page is served from. Code, not prose: it is the
 * same in every language, so it is built here rather than kept in the translations.
 */
export function buttonSnippet(origin: string): string {
  return `<div id="quern-pay"></div>
<script src="${origin}/sdk/checkout.js"></script>
<script>
  Quern.button(document.getElementById('quern-pay'), {
    to: 'your_username',
    cart: [{ name: 'Tea', price: '100000', quantity: 3 }],
    price: '300000',
    currency: 'MLX',
    reference: 'order-1001',
    redirect: 'https://shop.example/thanks',
    onResult(result) {
      // Your server verifies the token for this order's reference and amount, and ships each order once.
      if (result.success) fetch('/your-server/quern-verify', { method: 'POST', body: JSON.stringify({ token: result.token }) });
    },
  });
</script>`;
}

export function verifySnippet(origin: string): string {
  return `curl -X POST ${origin}/api/v1/orders/verify \\
  -H 'Authorization: Bearer <your API key>' \\
  -H 'Content-Type: application/json' \\
  -d '{"token":"<token from onResult>","reference":"order-1001"}'`;
}

export function orderSnippet(origin: string): string {
  return `curl ${origin}/api/v1/orders/<order> \\
  -H 'Authorization: Bearer <your API key>'`;
}

export const orderAnswerSnippet = `{
  "id": "…",
  "status": "paid",
  "amount": "300000",
  "currency": "MLX",
  "rate": "0.0000125",
  "shopper_username": "…",
  "reference": "order-1001",
  "created_at": "2026-01-01T12:00:00.000Z"
}`;
