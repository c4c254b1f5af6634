/**
 * The question a destructive action asks first (CONTRACT §17.2): a `<dialog>` whose heading says
 * what will happen, an optional "Reason", a button whose name begins "Confirm" and "Cancel"
 * (Cancel and Escape change nothing). Its behaviour is src/web/pages/confirm-dialog.ts.
 *
 * - In a row: `<ConfirmDialog opener="Retire" request={...}>` renders the row's button and keeps the
 *   dialog in a template until it is pressed (so the row's text stays its own); the dialog's form
 *   sends the request, and the API's message lands in the dialog, with what was typed.
 * - For a form that keeps its own fields ("Void an insertion"): `<ApiForm confirm="<id>">` with a
 *   `<ConfirmDialog id="<id>">` inside it, after its submit button; that button opens the dialog,
 *   whose "Confirm …" sends the form (the dialog's fields included); the API's message lands in
 *   the form. `<Echo name="insertionId" />` in the dialog repeats what was typed in that field.
 */
import type { ComponentChildren } from 'preact';
import { ApiForm, type ApiFormProps, TextField } from './components';

export interface ConfirmDialogProps {
  /** Unique on the page. */
  id: string;
  /** The question, naming what it acts on ("Retire “First Coin”?"): the dialog's heading and name. */
  title: string;
  /** The button that does it. */
  confirm: 'Confirm' | `Confirm ${string}`;
  /** Asks a "Reason" (kept in the audit log). */
  reason?: 'required' | 'optional';
  /** In a row: the button that opens the dialog ... */
  opener?: string;
  openerVariant?: 'secondary' | 'danger';
  /** ... and the request the dialog's own form sends. */
  request?: Omit<ApiFormProps, 'children' | 'labelledBy' | 'label' | 'id' | 'class' | 'confirm'>;
  /** What will happen, in a sentence or two. */
  children: ComponentChildren;
}

const REASON_HINTS = {
  required: 'For the audit log (at most 200 characters).',
  optional: 'Optional, for the audit log (at most 200 characters).',
} as const;

/** What the user typed in the form's field `name`, repeated in its dialog when it opens. */
export function Echo(props: { name: string }) {
  return <code class="echo" data-echo={props.name}></code>;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const headingId = `${props.id}-heading`;
  // Read out with the dialog's name when it opens: what will happen.
  const textId = `${props.id}-text`;
  const body = (
    <>
      <h2 id={headingId}>{props.title}</h2>
      <div id={textId} class="confirm-text">
        {props.children}
      </div>
      {props.reason ? (
        <TextField id={`${props.id}-reason`} label="Reason" name="reason" required={props.reason === 'required'} optional={props.reason === 'optional'} hint={REASON_HINTS[props.reason]} />
      ) : null}
      <div class="actions">
        <button type="submit" class="button danger" data-confirms="">
          {props.confirm}
        </button>
        <button type="button" class="button secondary" data-close="">
          Cancel
        </button>
      </div>
    </>
  );
  if (!props.request) {
    return (
      <dialog id={props.id} class="confirm" aria-labelledby={headingId} aria-describedby={textId}>
        {body}
      </dialog>
    );
  }
  return (
    <>
      <button type="button" class={`button small ${props.openerVariant ?? 'danger'}`} data-confirm-open={props.id} aria-haspopup="dialog">
        {props.opener}
      </button>
      <template id={props.id}>
        <dialog class="confirm" aria-labelledby={headingId} aria-describedby={textId}>
          <ApiForm {...props.request} labelledBy={headingId}>
            {body}
          </ApiForm>
        </dialog>
      </template>
    </>
  );
}
