/**
 * "Resend e-mail" of the "Verify your e-mail" notice (src/web/verify-email-notice.tsx), on `/me`
 * and the host page: mails the verification link again (`POST /auth/verify-email/resend`) and says
 * what happened in the notice itself, brought into view (CONTRACT §17.2).
 */
import { callApi } from './api-forms';

/** "42 minutes", "1 minute", "30 seconds": how long the mail limits (§12) ask to wait. */
export function waitText(retryAfterMs: unknown): string {
  const ms = typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs > 0 ? retryAfterMs : 60_000;
  if (ms < 60_000) {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  }
  const minutes = Math.ceil(ms / 60_000);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

async function resend(notice: HTMLElement, button: HTMLButtonElement): Promise<void> {
  const status = notice.querySelector<HTMLElement>('[data-resend-status]')!;
  const alert = notice.querySelector<HTMLElement>('[data-resend-error]')!;
  // Busy, not disabled: disabling the focused button would drop keyboard focus.
  if (button.getAttribute('aria-busy') === 'true') return;
  button.setAttribute('aria-busy', 'true');
  status.textContent = '';
  alert.textContent = '';
  const answer = await callApi('POST', '/auth/verify-email/resend');
  button.removeAttribute('aria-busy');
  let shown: HTMLElement = alert;
  if (answer.status === 200 && answer.body.sent === false) {
    status.textContent = 'Your e-mail address is verified already. Reload the page to play.';
    shown = status;
  } else if (answer.status === 200) {
    status.textContent = `Sent. A new link is on its way to ${notice.dataset.email ?? 'your address'}: open it within 48 hours.`;
    shown = status;
  } else if (answer.status === 429) {
    alert.textContent = `Too many e-mails were sent in a short time, so no new one went out. Try again in ${waitText(answer.body.retryAfterMs)}; the links already sent still work.`;
  } else if (answer.status === 401) {
    alert.textContent = 'You are signed out. Sign in again to have the e-mail sent.';
  } else if (answer.status === 0 || answer.status >= 500) {
    alert.textContent = 'The arcade cannot be reached. Check your connection and try again.';
  } else {
    alert.textContent = typeof answer.body.message === 'string' && answer.body.message ? answer.body.message : 'The e-mail could not be sent. Please try again.';
  }
  shown.scrollIntoView({ block: 'nearest' });
}

/** Every "Resend e-mail" button of the page (one listener on the document). */
export function startVerifyEmail(doc: Document): void {
  doc.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-resend-verification]') : null;
    const notice = button?.closest<HTMLElement>('[data-verify-email]');
    if (!button || !notice) return;
    void resend(notice, button);
  });
}
