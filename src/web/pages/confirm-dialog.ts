/**
 * Destructive actions ask first (CONTRACT §17.2; `ConfirmDialog` in src/http/pages/confirm-dialog.tsx).
 *
 * - `[data-confirm-open="<template id>"]`, a row's button: opens that template's dialog in the row
 *   as a modal; the dialog's own API form sends the request when "Confirm …" is pressed.
 * - `form[data-confirm="<dialog id>"]`: submitting opens the dialog instead (once the ids the path
 *   needs are typed); its "Confirm …" submits the form, the dialog's fields included, and closes
 *   the dialog, so the API's message lands in the form's own alert beside what was typed.
 *
 * Cancel (`data-close`, src/web/pages/controls.ts) and Escape close the dialog and change nothing;
 * the focus then goes back to the button that opened it.
 */
import { formAction } from './api-forms';

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** Shows `dialog` as a modal with the focus on its first field, or on "Cancel" when it has none (never on "Confirm …"). */
function show(dialog: HTMLDialogElement, opener: HTMLElement | null, onClose?: () => void): void {
  dialog.addEventListener(
    'close',
    () => {
      onClose?.();
      if (opener?.isConnected) opener.focus();
    },
    { once: true },
  );
  dialog.showModal();
  const first = dialog.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, select') ?? dialog.querySelector<HTMLElement>('[data-close]');
  first?.focus();
}

function openFromTemplate(button: HTMLElement, doc: Document): void {
  const template = doc.getElementById(button.dataset.confirmOpen!);
  if (!(template instanceof HTMLTemplateElement)) return;
  const dialog = template.content.firstElementChild?.cloneNode(true);
  if (!(dialog instanceof HTMLDialogElement)) return;
  template.after(dialog);
  // A fresh dialog each time: what was typed before a Cancel does not come back.
  show(dialog, button, () => dialog.remove());
}

/** Repeats what the form's fields hold (an insertion id) where the dialog names them. */
function echo(form: HTMLFormElement, dialog: HTMLDialogElement): void {
  for (const slot of Array.from(dialog.querySelectorAll<HTMLElement>('[data-echo]'))) {
    const field = form.elements.namedItem(slot.dataset.echo!) as Field | null;
    slot.textContent = field && 'value' in field ? field.value.trim() : '';
  }
}

/** Runs before the API form's own submit listener (capture): a form that asks first sends nothing until confirmed. */
function onSubmit(event: SubmitEvent, doc: Document): void {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
  const dialog = doc.getElementById(form.dataset.confirm);
  if (!(dialog instanceof HTMLDialogElement) || !form.contains(dialog)) return;
  if (dialog.open && event.submitter?.hasAttribute('data-confirms') && dialog.contains(event.submitter)) {
    // Confirmed: the form sends its request with the fields as they are; its alert is in view once the dialog closes.
    dialog.close();
    return;
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  if (dialog.open) return;
  const alert = form.querySelector<HTMLElement>('[data-form-error]');
  const action = formAction(form);
  if ('missing' in action) {
    if (alert) alert.textContent = `Fill in ${action.missing}.`;
    return;
  }
  if (alert) alert.textContent = '';
  echo(form, dialog);
  const opener = event.submitter instanceof HTMLElement ? event.submitter : form.querySelector<HTMLElement>('[type="submit"]');
  show(dialog, opener);
}

export function startConfirmDialogs(doc: Document): void {
  doc.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-confirm-open]') : null;
    if (button) openFromTemplate(button, doc);
  });
  doc.addEventListener('submit', (event) => onSubmit(event, doc), true);
}
