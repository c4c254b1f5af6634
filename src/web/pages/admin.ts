/**
 * `/admin`: its searches and choices ("Search games", "Status", "Find a user", "Game") show their
 * results as the admin types or chooses, without a reload. A `form[data-live-search]` is a GET form
 * on /admin: its fields go into the page's address (the rest of the address stays, so the other
 * sections keep what they show), and the page's regions are rendered again for that address. The
 * form itself is not replaced, so typing goes on undisturbed. Without the script the forms submit
 * as plain GET forms to the same address.
 */
import { wholeNumberText } from '../../http/pages/formats';
import { refreshRegions } from './api-forms';

const TYPING_PAUSE_MS = 250;

function addressFor(form: HTMLFormElement, win: Window): string {
  const url = new URL(win.location.href);
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement) || !element.name) continue;
    const value = element.value.trim();
    if (value) url.searchParams.set(element.name, value);
    else url.searchParams.delete(element.name);
  }
  // A new search or choice starts its list at the first page.
  const cursor = form.dataset.cursor;
  if (cursor) url.searchParams.delete(cursor);
  return url.pathname + url.search + url.hash;
}

/** What a `{name}` of a success message reads: the form's field, coins as `1 coin` or `1,250 coins`. */
function fieldText(form: HTMLFormElement, name: string): string | undefined {
  const field = form.elements.namedItem(name);
  if (!(field instanceof HTMLInputElement)) return undefined;
  const value = field.value.trim();
  if (field.type !== 'number' || !/^\d+$/.test(value)) return value;
  return name === 'coins' ? `${wholeNumberText(value)} ${value === '1' ? 'coin' : 'coins'}` : wholeNumberText(value);
}

/**
 * A success message that names what was typed ("Credited {coins} to Ada."): filled in from the
 * form as it is sent, before the form script reads it (this listener captures, that one bubbles).
 */
function fillSuccessMessage(form: HTMLFormElement): void {
  const template = (form.dataset.flashTemplate ??= form.dataset.flash);
  if (!template?.includes('{')) return;
  form.dataset.flash = template.replace(/\{(\w+)\}/g, (placeholder, name: string) => fieldText(form, name) ?? placeholder);
}

export function startAdmin(doc: Document, win: Window): void {
  doc.addEventListener(
    'submit',
    (event) => {
      if (event.target instanceof HTMLFormElement && event.target.dataset.apiMethod) fillSuccessMessage(event.target);
    },
    true,
  );
  let latest = 0;
  const show = (form: HTMLFormElement): void => {
    const address = addressFor(form, win);
    if (address === win.location.pathname + win.location.search + win.location.hash) return;
    win.history.replaceState(null, '', address);
    const mine = ++latest;
    void refreshRegions(doc, win, () => mine === latest);
  };
  const timers = new WeakMap<HTMLFormElement, number>();
  const later = (form: HTMLFormElement): void => {
    win.clearTimeout(timers.get(form));
    timers.set(form, win.setTimeout(() => show(form), TYPING_PAUSE_MS));
  };
  const liveForm = (target: EventTarget | null): HTMLFormElement | null =>
    target instanceof Element ? target.closest<HTMLFormElement>('form[data-live-search]') : null;

  doc.addEventListener('input', (event) => {
    const form = liveForm(event.target);
    if (form && event.target instanceof HTMLInputElement) later(form);
  });
  doc.addEventListener('change', (event) => {
    const form = liveForm(event.target);
    if (form && event.target instanceof HTMLSelectElement) show(form);
  });
  doc.addEventListener('submit', (event) => {
    const form = liveForm(event.target);
    if (!form) return;
    event.preventDefault();
    win.clearTimeout(timers.get(form));
    show(form);
  });
}
