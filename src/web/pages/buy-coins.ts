/**
 * "Buy coins" (src/modules/payments/buy-coins.tsx): the button shows the packs; a pack button
 * creates the purchase with an idempotency key of its own (a double click buys once) and opens its
 * checkoutUrl, coming back to this page (`?return=`).
 */

function newKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `buy-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function checkoutAddress(checkoutUrl: string, returnTo: string, origin: string): string {
  const url = new URL(checkoutUrl, origin);
  if (url.origin === origin) url.searchParams.set('return', returnTo);
  return url.toString();
}

export function startBuyCoins(doc: Document, win: Window): void {
  for (const root of Array.from(doc.querySelectorAll<HTMLElement>('[data-buy-coins]'))) {
    const toggle = root.querySelector<HTMLButtonElement>('[data-buy-toggle]')!;
    const list = doc.getElementById(toggle.getAttribute('aria-controls')!)!;
    const error = root.querySelector<HTMLElement>('[data-buy-error]')!;
    const returnTo = root.dataset.return ?? win.location.pathname;
    const keys = new Map<string, string>();

    toggle.addEventListener('click', () => {
      const open = list.hidden;
      list.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      if (open) list.querySelector<HTMLButtonElement>('button')?.focus();
    });

    for (const button of Array.from(list.querySelectorAll<HTMLButtonElement>('[data-pack]'))) {
      button.addEventListener('click', async () => {
        const packId = button.dataset.pack!;
        if (!keys.has(packId)) keys.set(packId, newKey());
        button.disabled = true;
        error.textContent = '';
        try {
          const send = () =>
            fetch('/api/me/purchases', {
              method: 'POST',
              credentials: 'same-origin',
              headers: { 'content-type': 'application/json', accept: 'application/json' },
              body: JSON.stringify({ packId, idempotencyKey: keys.get(packId) }),
            });
          let response = await send();
          let body = await response.json().catch(() => ({}));
          // A repeat of the key while the provider is still opening the checkout: no address yet, ask again (the same purchase).
          for (let tries = 0; response.ok && body.checkoutUrl === null && body.status === 'pending' && tries < 10; tries += 1) {
            await new Promise((resolve) => win.setTimeout(resolve, 1000));
            response = await send();
            body = await response.json().catch(() => ({}));
          }
          if (response.ok && typeof body.checkoutUrl === 'string') {
            win.location.assign(checkoutAddress(body.checkoutUrl, returnTo, win.location.origin));
            return;
          }
          if (response.status === 401) {
            win.location.assign(`/auth/login?next=${encodeURIComponent(win.location.pathname + win.location.search)}`);
            return;
          }
          // A refusal (a frozen wallet, say) is final for this key; the next click tries afresh.
          keys.delete(packId);
          error.textContent =
            typeof body.message === 'string' ? body.message : body.status === 'failed' ? 'The payment provider did not answer in time. Please try again.' : 'The purchase could not be started. Please try again.';
        } catch {
          error.textContent = 'The arcade cannot be reached. Check your connection and try again.';
        } finally {
          button.disabled = false;
        }
      });
    }
  }
}
