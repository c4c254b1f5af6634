/** The checkout page (`/checkout/{purchaseId}`, CONTRACT §17.1, §19): the sandbox's card form, or a Stripe payment's outcome. */
import { escapeHtml, standalonePageStart } from '../../http/html-page';
import { safeNext } from '../identity/login-page';
import type { PurchaseView } from './purchases.service';

/** Where "Continue" leads: the `return` path when it is a path on this origin (as `next`), else /me. */
export function returnPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0) return '/me';
  const path = safeNext(raw);
  return path === '/' && raw !== '/' ? '/me' : path;
}

const SCRIPT = `
(function () {
  var form = document.getElementById('pay');
  if (!form) return;
  var alert = document.getElementById('pay-error');
  var outcome = document.getElementById('outcome');
  var purchaseId = document.body.getAttribute('data-purchase');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var button = form.querySelector('button[type=submit]');
    button.disabled = true;
    alert.textContent = '';
    fetch('/api/sandbox/purchases/' + encodeURIComponent(purchaseId) + '/pay', {
      method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ cardNumber: form.cardNumber.value })
    })
      .then(function (res) { return res.json().catch(function () { return {}; }).then(function (body) { return { ok: res.ok, body: body }; }); })
      .then(function (answer) {
        button.disabled = false;
        if (!answer.ok) { alert.textContent = (answer.body && answer.body.message) || 'The payment did not go through. Please try again.'; form.cardNumber.focus(); return; }
        var paid = answer.body.status !== 'pending' && answer.body.status !== 'failed';
        document.getElementById('outcome-text').textContent = paid ? 'Payment received' : 'Payment declined';
        document.getElementById('outcome-detail').textContent = paid
          ? answer.body.coins + ' coins are in your wallet.'
          : 'Nothing was charged and your balance is unchanged. You can try another card.';
        outcome.hidden = false;
        if (paid) form.hidden = true;
        document.getElementById('continue').focus();
      })
      .catch(function () { button.disabled = false; alert.textContent = 'The arcade cannot be reached. Check your connection and try again.'; });
  });
})();
`;

const SETTLED = new Set(['paid', 'refunded', 'disputed']);

export function checkoutPage(options: { purchase: PurchaseView; provider: 'sandbox' | 'stripe'; back: string; nonce: string }): string {
  const { purchase } = options;
  const settled = SETTLED.has(purchase.status);
  const payable = options.provider === 'sandbox' && !settled;
  const outcome = settled ? 'Payment received' : purchase.status === 'failed' ? 'Payment declined' : '';
  const detail = settled
    ? `${purchase.coins} coins were added to your wallet.`
    : purchase.status === 'failed'
      ? 'Nothing was charged and your balance is unchanged.'
      : 'Waiting for the payment provider to confirm the payment. Reload this page in a moment.';
  const showOutcome = !payable || purchase.status === 'failed';
  return `${standalonePageStart('Checkout — Arcade', `data-page="checkout" data-purchase="${escapeHtml(purchase.purchaseId)}"`)}<main id="main" class="wrap">
  <h1>Buy coins</h1>
  <section class="panel" aria-labelledby="pack-heading">
    <h2 id="pack-heading">${purchase.coins} coins</h2>
    <p>Price: <strong>$${escapeHtml(purchase.priceUsd)}</strong> (US dollars)</p>
  </section>
  <div id="outcome" role="status" aria-live="polite"${showOutcome ? '' : ' hidden'}>
    <p class="message"><strong id="outcome-text">${escapeHtml(outcome)}</strong> <span id="outcome-detail">${escapeHtml(detail)}</span></p>
  </div>
  ${
    payable
      ? `<form id="pay" class="panel" aria-labelledby="pay-heading" novalidate>
    <h2 id="pay-heading">Pay by card</h2>
    <p><label for="card-number">Card number</label><br>
    <input id="card-number" name="cardNumber" type="text" inputmode="numeric" autocomplete="off" required maxlength="32" aria-describedby="card-help"><br>
    <small id="card-help">Sandbox: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined. No real money moves.</small></p>
    <p id="pay-error" role="alert" class="message" data-tone="error"></p>
    <button type="submit" class="button primary">Pay</button>
  </form>`
      : ''
  }
  <p><a id="continue" class="button" href="${escapeHtml(options.back)}">Continue</a></p>
</main>
<script nonce="${options.nonce}">${SCRIPT}</script>
</body>
</html>
`;
}
