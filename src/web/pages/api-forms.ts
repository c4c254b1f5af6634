/**
 * Forms that call one REST endpoint (`ApiForm` in src/http/pages/components.tsx). The fields
 * become the JSON body; on an error the API's `message` goes into the form's own role="alert"
 * and everything typed stays; on success the page shows the change (reload, refresh of its
 * `data-region` parts, or a move to `data-next`).
 */

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

const FLASH_KEY = 'arcade:flash';

export async function callApi(method: string, path: string, body?: Record<string, unknown>): Promise<ApiAnswer> {
  try {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = {};
    }
    return { status: response.status, body: parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {} };
  } catch {
    return { status: 0, body: {} };
  }
}

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function isField(element: Element): element is Field {
  return element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement;
}

/**
 * The JSON body of a form: numbers for number fields, booleans for checkboxes (an array of the
 * checked values for `data-array` ones), the checked radio, a `data-json` hidden field's JSON value,
 * strings otherwise; an empty number field or an empty `data-optional` field is left out, and so is
 * a `data-path` field (it goes into the path: see `formAction`). Undefined when the form has no
 * fields (an action such as "Retire").
 */
export function formBody(form: HTMLFormElement): Record<string, unknown> | undefined {
  const body: Record<string, unknown> = {};
  for (const element of Array.from(form.elements)) {
    if (!isField(element) || !element.name || element.disabled || element.hasAttribute('data-path')) continue;
    if (element instanceof HTMLInputElement && element.type === 'radio') {
      if (element.checked) body[element.name] = element.value;
    } else if (element instanceof HTMLInputElement && element.type === 'checkbox' && element.hasAttribute('data-array')) {
      // A group of checkboxes sharing a name: the array of the checked ones' values (webhook event types).
      const list = (Array.isArray(body[element.name]) ? body[element.name] : (body[element.name] = [])) as string[];
      if (element.checked) list.push(element.value);
    } else if (element instanceof HTMLInputElement && element.type === 'checkbox') {
      body[element.name] = element.checked;
    } else if (element instanceof HTMLInputElement && element.type === 'hidden' && element.hasAttribute('data-json')) {
      body[element.name] = JSON.parse(element.value) as unknown;
    } else if (element instanceof HTMLInputElement && element.type === 'number') {
      if (element.value.trim() !== '') body[element.name] = Number(element.value);
    } else if (!(element.value === '' && element.hasAttribute('data-optional'))) {
      body[element.name] = element.value;
    }
  }
  return Object.keys(body).length > 0 ? body : undefined;
}

/**
 * The endpoint of a form: its action with each `{name}` replaced by the value of its `data-path`
 * field (an id typed by the user, such as "Insertion id"); a message instead when one is empty.
 */
export function formAction(form: HTMLFormElement): { path: string } | { missing: string } {
  let missing: string | undefined;
  const path = (form.getAttribute('action') ?? '').replace(/\{(\w+)\}/g, (_match, name: string) => {
    const field = Array.from(form.elements).find((element): element is Field => isField(element) && element.name === name);
    const value = field?.value.trim() ?? '';
    if (!value) missing ??= field?.labels?.[0]?.textContent ?? name;
    return encodeURIComponent(value);
  });
  return missing === undefined ? { path } : { missing };
}

function messageOf(answer: ApiAnswer): string {
  if (typeof answer.body.message === 'string' && answer.body.message) return answer.body.message;
  if (answer.status === 0) return 'The arcade cannot be reached. Check your connection and try again.';
  return `That did not work (HTTP ${answer.status}). Please try again.`;
}

/** How long a success message floats at the top of the window before it settles at the top of the page. */
const FLASH_FLOATS_MS = 10_000;
let flashSettles: ReturnType<typeof setTimeout> | undefined;

/**
 * The page's status line says what just succeeded (CONTRACT §17.2), where the eye is: it floats at
 * the top of the window (sticky, however far down the form was, after a reload too), then settles
 * in its place at the top of the page; it never takes the focus.
 */
export function showFlash(doc: Document, text: string): void {
  const flash = doc.getElementById('flash');
  if (!flash) return;
  flash.textContent = text;
  flash.classList.add('floating');
  clearTimeout(flashSettles);
  flashSettles = setTimeout(() => flash.classList.remove('floating'), FLASH_FLOATS_MS);
  // Sticky holds while <main> is on screen; from the footer, bring it into view.
  flash.scrollIntoView({ block: 'nearest' });
}

/** A message kept across the reload that shows a change. */
export function showStoredFlash(doc: Document, win: Window): void {
  try {
    const text = win.sessionStorage.getItem(FLASH_KEY);
    if (text) showFlash(doc, text);
    win.sessionStorage.removeItem(FLASH_KEY);
  } catch {
    // Storage may be disabled: the page itself shows the change.
  }
}

/**
 * Replaces the page's `data-region` parts with the server's current rendering of the same page
 * (its address now); `stillWanted` can drop an answer that a later refresh overtook.
 */
export async function refreshRegions(doc: Document, win: Window, stillWanted: () => boolean = () => true): Promise<void> {
  try {
    const response = await fetch(win.location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    if (!response.ok) throw new Error(String(response.status));
    const html = await response.text();
    if (!stillWanted()) return;
    const fresh = new DOMParser().parseFromString(html, 'text/html');
    for (const region of Array.from(fresh.querySelectorAll<HTMLElement>('[data-region][id]'))) {
      doc.getElementById(region.id)?.replaceWith(doc.importNode(region, true));
    }
  } catch {
    win.location.reload();
  }
}

function reveal(doc: Document, regionId: string, body: Record<string, unknown>): void {
  const region = doc.getElementById(regionId);
  if (!region) return;
  for (const field of Array.from(region.querySelectorAll<HTMLElement>('[data-field]'))) {
    field.textContent = String(body[field.dataset.field!] ?? '');
  }
  region.hidden = false;
  region.focus();
}

async function succeeded(form: HTMLFormElement, body: Record<string, unknown>, doc: Document, win: Window): Promise<void> {
  const flash = form.dataset.flash;
  if (form.dataset.reveal) reveal(doc, form.dataset.reveal, body);
  // A right password of an account with two-factor on: the code step takes over (two-factor.ts).
  if (body.twoFactorRequired === true) {
    form.dispatchEvent(new CustomEvent('two-factor-required', { bubbles: true, detail: body.challenge }));
    return;
  }
  switch (form.dataset.after) {
    case 'navigate':
      try {
        // The next page shows it (account deletion lands on the home page with its message).
        if (flash) win.sessionStorage.setItem(FLASH_KEY, flash);
      } catch {
        // The next page shows the change without the message.
      }
      win.location.assign(form.dataset.next ?? '/');
      return;
    case 'refresh':
      form.reset();
      await refreshRegions(doc, win);
      if (flash) showFlash(doc, flash);
      return;
    default:
      try {
        if (flash) win.sessionStorage.setItem(FLASH_KEY, flash);
      } catch {
        // The reloaded page shows the change without the message.
      }
      win.location.reload();
  }
}

async function submit(form: HTMLFormElement, doc: Document, win: Window): Promise<void> {
  if (form.getAttribute('aria-busy') === 'true') return;
  const alert = form.querySelector<HTMLElement>('[data-form-error]');
  if (alert) alert.textContent = '';
  // Busy, not disabled: disabling the focused button would drop keyboard focus.
  const action = formAction(form);
  if ('missing' in action) {
    if (alert) alert.textContent = `Fill in ${action.missing}.`;
    return;
  }
  form.setAttribute('aria-busy', 'true');
  const answer = await callApi(form.dataset.apiMethod ?? 'POST', action.path, formBody(form));
  form.removeAttribute('aria-busy');
  if (answer.status >= 200 && answer.status < 300) return succeeded(form, answer.body, doc, win);
  if (alert) alert.textContent = messageOf(answer);
}

/** Every API form of the page, present or added later (one listener on the document). */
export function startApiForms(doc: Document, win: Window): void {
  doc.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.apiMethod) return;
    event.preventDefault();
    void submit(form, doc, win);
  });
}
