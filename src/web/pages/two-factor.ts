/**
 * Two-factor authentication in the browser (CONTRACT §20). On /me/settings: "Set up two-factor"
 * asks the API for a new secret and draws its otpauth URL as a QR code (an SVG made here, by the
 * qrcode package bundled into this script: nothing loads from elsewhere), beside the secret as
 * text; "Turn on" sends the code and shows the recovery codes this once. On the sign-in and
 * reset-password pages: a password answered with `twoFactorRequired` (api-forms.ts raises
 * `two-factor-required`) shows the code step with its challenge.
 */
import { toString as qrSvg } from 'qrcode';
import { callApi } from './api-forms';

/** Raised on a form whose answer asks for a two-factor code (`detail`: the challenge). */
export const TWO_FACTOR_REQUIRED_EVENT = 'two-factor-required';

function messageOf(answer: { status: number; body: Record<string, unknown> }): string {
  if (typeof answer.body.message === 'string' && answer.body.message) return answer.body.message;
  if (answer.status === 0) return 'The arcade cannot be reached. Check your connection and try again.';
  return `That did not work (HTTP ${answer.status}). Please try again.`;
}

/** Runs `work` once at a time per form, its alert cleared first (as api-forms.ts does). */
async function submit(form: HTMLFormElement, work: (alert: HTMLElement | null) => Promise<void>): Promise<void> {
  if (form.getAttribute('aria-busy') === 'true') return;
  const alert = form.querySelector<HTMLElement>('[data-form-error]');
  if (alert) alert.textContent = '';
  form.setAttribute('aria-busy', 'true');
  try {
    await work(alert);
  } finally {
    form.removeAttribute('aria-busy');
  }
}

async function setUp(form: HTMLFormElement, doc: Document): Promise<void> {
  await submit(form, async (alert) => {
    const answer = await callApi('POST', '/api/me/2fa/setup');
    if (answer.status !== 200) {
      if (alert) alert.textContent = messageOf(answer);
      return;
    }
    const secret = String(answer.body.secret ?? '');
    const url = String(answer.body.otpauthUrl ?? '');
    const step = doc.getElementById('two-factor-enrol');
    if (!step) return;
    const qr = step.querySelector<HTMLElement>('[data-two-factor-qr]');
    if (qr) qr.innerHTML = await qrSvg(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
    const text = step.querySelector<HTMLElement>('[data-two-factor-secret]');
    if (text) text.textContent = secret;
    step.hidden = false;
    form.hidden = true;
    doc.getElementById('two-factor-code')?.focus();
  });
}

async function enable(form: HTMLFormElement, doc: Document): Promise<void> {
  await submit(form, async (alert) => {
    const field = form.elements.namedItem('code');
    const code = field instanceof HTMLInputElement ? field.value.trim() : '';
    const answer = await callApi('POST', '/api/me/2fa/enable', { code });
    if (answer.status !== 200) {
      if (alert) alert.textContent = messageOf(answer);
      return;
    }
    const codes = Array.isArray(answer.body.recoveryCodes) ? answer.body.recoveryCodes.map(String) : [];
    const list = doc.getElementById('two-factor-recovery-codes');
    if (list) {
      list.replaceChildren();
      codes.forEach((value, i) => {
        const item = doc.createElement('li');
        item.textContent = value;
        list.append(item);
        // One code a line when copied.
        if (i < codes.length - 1) list.append(doc.createTextNode('\n'));
      });
    }
    doc.getElementById('two-factor-enrol')!.hidden = true;
    doc.getElementById('two-factor-status')!.hidden = true;
    const done = doc.getElementById('two-factor-recovery')!;
    done.hidden = false;
    done.focus();
  });
}

/** The sign-in page's code step: the password form gives way to "Code" and "Verify". */
function showCodeStep(from: HTMLFormElement, challenge: string, doc: Document, win: Window): void {
  const step = doc.getElementById('two-factor-step');
  if (!step) {
    // A page without a code step: sign in there with the password, then the code.
    win.location.assign('/auth/login');
    return;
  }
  const input = step.querySelector<HTMLInputElement>('[data-two-factor-challenge]');
  if (input) input.value = challenge;
  from.hidden = true;
  for (const element of Array.from(doc.querySelectorAll<HTMLElement>('[data-password-step]'))) element.hidden = true;
  step.hidden = false;
  doc.getElementById('signin-code-value')?.focus();
}

export function startTwoFactor(doc: Document, win: Window): void {
  doc.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.twoFactor) return;
    event.preventDefault();
    void (form.dataset.twoFactor === 'setup' ? setUp(form, doc) : enable(form, doc));
  });
  doc.addEventListener(TWO_FACTOR_REQUIRED_EVENT, (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement) showCodeStep(form, String((event as CustomEvent<string>).detail), doc, win);
  });
}
