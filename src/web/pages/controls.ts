/** Small behaviours of the server-rendered pages, each keyed by a data attribute. */

/**
 * `data-edit="<template id>"`: opens the row's edit form (kept in a template, so the row holds only
 * its own text) as a dialog in that row. While it is open its opener is hidden, so the row names
 * each button once ("Credit coins" and the dialog's "Credit" are not both there); closing the
 * dialog brings the opener and its focus back.
 */
function openEditor(button: HTMLElement, doc: Document): void {
  const template = doc.getElementById(button.dataset.edit!);
  if (!(template instanceof HTMLTemplateElement)) return;
  const dialog = template.content.firstElementChild?.cloneNode(true);
  if (!(dialog instanceof HTMLDialogElement)) return;
  template.after(dialog);
  dialog.addEventListener('close', () => {
    dialog.remove();
    button.hidden = false;
    button.focus();
  });
  dialog.showModal();
  button.hidden = true;
}

/** `data-copy="<element id>"`: copies that element's text, saying so in the nearby `data-copy-status`. */
async function copy(button: HTMLElement, doc: Document, win: Window): Promise<void> {
  const source = doc.getElementById(button.dataset.copy!);
  const status = button.parentElement?.querySelector<HTMLElement>('[data-copy-status]');
  if (!source) return;
  try {
    await win.navigator.clipboard.writeText(source.textContent ?? '');
    if (status) status.textContent = 'Copied.';
  } catch {
    const range = doc.createRange();
    range.selectNodeContents(source);
    win.getSelection()?.removeAllRanges();
    win.getSelection()?.addRange(range);
    if (status) status.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
  }
}

export function startControls(doc: Document, win: Window): void {
  doc.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-edit], [data-copy], [data-close]') : null;
    if (!target) return;
    if (target.dataset.edit) openEditor(target, doc);
    else if (target.dataset.copy) void copy(target, doc, win);
    else target.closest('dialog')?.close();
  });
  // `data-submit-on-change`: a choice reloads the page for it at once (no apply button).
  doc.addEventListener('change', (event) => {
    const select = event.target;
    if (select instanceof HTMLSelectElement && select.hasAttribute('data-submit-on-change')) select.form?.submit();
  });
}
