/**
 * Building blocks of the pages' forms and tables. A form here calls one REST endpoint through
 * the page script (src/web/pages/api-forms.ts): its fields become the JSON body, the API's
 * `message` lands in the form's own `role="alert"`, and what the user typed stays.
 */
import { h, type ComponentChildren, type VNode } from 'preact';
import { ICON_KEYS } from './icons';
import { ICON_NODES, ICON_SVG_ATTRIBUTES, iconNode, type IconNode } from './icons';
import { dateText, moneyText, shortIdText, timeOfDayText } from './formats';

/** What the page does after the API said yes: reload it, go to `next`, or replace its `data-region` parts. */
export type After = 'reload' | 'navigate' | 'refresh';

export interface ApiFormProps {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The REST endpoint. */
  action: string;
  /** The form's accessible name: the id of its heading, or a label. */
  labelledBy?: string;
  label?: string;
  after?: After;
  /** With `after="navigate"`: where to go. */
  next?: string;
  /** Shown in the page's status line once the page shows the change. */
  flash?: string;
  /** The id of a hidden region whose `data-field` elements show fields of the answer (a new key, shown once). */
  reveal?: string;
  /** The id of a `ConfirmDialog` inside the form (src/http/pages/confirm-dialog.tsx): submitting asks there first. */
  confirm?: string;
  id?: string;
  class?: string;
  children: ComponentChildren;
}

export function ApiForm(props: ApiFormProps) {
  return (
    <form
      id={props.id}
      class={props.class ?? 'api-form'}
      method="post"
      action={props.action}
      novalidate
      aria-labelledby={props.labelledBy}
      aria-label={props.labelledBy ? undefined : props.label}
      data-api-method={props.method}
      data-after={props.after ?? 'reload'}
      data-next={props.next}
      data-flash={props.flash}
      data-reveal={props.reveal}
      data-confirm={props.confirm}
    >
      {props.children}
      <p class="form-error" role="alert" data-form-error=""></p>
    </form>
  );
}

interface FieldProps {
  id: string;
  label: string;
  name: string;
  value?: string | number;
  hint?: string;
  required?: boolean;
  /** Left out of the body when empty. */
  optional?: boolean;
  /** Goes into the form's action in place of `{name}` (an id the endpoint takes in its path), not into the body. */
  path?: boolean;
  autocomplete?: string;
}

function Hint(props: { id: string; text?: string }) {
  return props.text ? (
    <small id={`${props.id}-hint`} class="hint">
      {props.text}
    </small>
  ) : null;
}

export function TextField(props: FieldProps & { type?: 'text' | 'email' | 'password' | 'url'; spellcheck?: boolean }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        // preact's input typing narrows by a literal `type`; these four share the same attributes.
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        required={props.required}
        autocomplete={props.autocomplete}
        spellcheck={props.spellcheck}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        data-optional={props.optional ? '' : undefined}
        data-path={props.path ? '' : undefined}
      />
      <Hint id={props.id} text={props.hint} />
    </div>
  );
}

/** A whole number; sent as a JSON number. */
export function NumberField(props: FieldProps & { min?: number; max?: number }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type="number"
        inputmode="numeric"
        step={1}
        min={props.min}
        max={props.max}
        value={props.value}
        required={props.required}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        data-optional={props.optional ? '' : undefined}
      />
      <Hint id={props.id} text={props.hint} />
    </div>
  );
}

export function TextArea(props: FieldProps) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <textarea id={props.id} name={props.name} rows={2} required={props.required} aria-describedby={props.hint ? `${props.id}-hint` : undefined}>
        {props.value}
      </textarea>
      <Hint id={props.id} text={props.hint} />
    </div>
  );
}

/** A checkbox; sent as a JSON boolean. */
/** A checkbox; with `value` it is one of a group sharing `name` whose body is the array of the checked values. */
export function Checkbox(props: { id: string; label: string; name: string; checked?: boolean; hint?: string; value?: string }) {
  return (
    <div class="field checkbox">
      <input
        id={props.id}
        name={props.name}
        type="checkbox"
        checked={props.checked}
        value={props.value}
        data-array={props.value !== undefined ? '' : undefined}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
      />
      <label for={props.id}>{props.label}</label>
      <Hint id={props.id} text={props.hint} />
    </div>
  );
}

/** A select; `submitOnChange`: choosing an option submits its (GET) form at once, no apply button. */
export function Select(props: {
  id: string;
  label: string;
  name: string;
  options: { value: string; label: string }[];
  value?: string;
  hint?: string;
  submitOnChange?: boolean;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.name}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        data-submit-on-change={props.submitOnChange ? '' : undefined}
      >
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Hint id={props.id} text={props.hint} />
    </div>
  );
}

/**
 * A filter: a GET form of one select that submits when an option is chosen (no apply button), with
 * a "Show" button for a browser without scripts. `action` may carry a fragment to land on.
 */
export function FilterForm(props: { action: string; select: Omit<Parameters<typeof Select>[0], 'submitOnChange'> }) {
  return (
    <form method="get" action={props.action} class="filter">
      <Select {...props.select} submitOnChange />
      <noscript>
        <button type="submit" class="button secondary">
          Show
        </button>
      </noscript>
    </form>
  );
}

/** The "Icon" radio group (§17.1): 18 radios named by icon key, each showing its icon. */
export function IconPicker(props: { id: string; value?: string }) {
  const selected = props.value ?? 'trophy';
  return (
    <fieldset class="icon-picker" role="radiogroup" aria-labelledby={`${props.id}-legend`}>
      <legend id={`${props.id}-legend`}>Icon</legend>
      <div class="icon-options">
        {ICON_KEYS.map((key) => (
          <label class="icon-option">
            <input type="radio" name="iconKey" value={key} checked={key === selected} />
            <SvgIcon node={ICON_NODES[key]} />
            <span class="icon-key">{key}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A value the server sends along (an id the endpoint needs in its body). */
/** A hidden field; `json`: its value is sent as the JSON value it spells (`false`, `true`, a number). */
export function Hidden(props: { name: string; value: string; json?: boolean }) {
  return <input type="hidden" name={props.name} value={props.value} data-json={props.json ? '' : undefined} />;
}

export function Submit(props: { children: string; variant?: 'primary' | 'secondary' | 'danger' }) {
  return (
    <button type="submit" class={`button ${props.variant ?? 'primary'}`}>
      {props.children}
    </button>
  );
}

/** An icon as decoration (hidden from assistive technology: its name is written beside it). */
export function SvgIcon(props: { node: IconNode; class?: string }) {
  return (
    <svg {...ICON_SVG_ATTRIBUTES} class={props.class ?? 'icon'}>
      {props.node.map(([tag, attributes]) => h(tag, attributes))}
    </svg>
  );
}

/** An achievement's icon beside its name. */
export function Icon(props: { iconKey: string }) {
  return <SvgIcon node={iconNode(props.iconKey)} />;
}

/** A date-time in UTC, readable and machine-readable (§17.2: `27 Nov 2026, 19:47 UTC`; `dateOnly`: `27 Nov 2026`). */
export function When(props: { at: Date | string | null; empty?: string; dateOnly?: boolean }) {
  if (props.at === null) return <>{props.empty ?? '—'}</>;
  const at = props.at instanceof Date ? props.at : new Date(props.at);
  const iso = at.toISOString();
  const day = dateText(at);
  if (props.dateOnly) return <time datetime={iso}>{day}</time>;
  // A narrow column breaks the line only between the day and the time of day, never inside either (§17.2 "Tables").
  return (
    <time datetime={iso}>
      <span class="nowrap">{day},</span> <span class="nowrap">{timeOfDayText(at)}</span>
    </time>
  );
}

/** US dollars as §17.2 writes them (`$0.70`, `$0.175`, `$1,250.00`) from the API's decimal string. */
export function Money(props: { usd: string | number }) {
  return <span class="money">{moneyText(props.usd)}</span>;
}

/**
 * A long id, URL or e-mail address in a table (§17.2): shown whole when it fits, otherwise cut
 * with a visible ellipsis, never broken across lines; the full value is in `title` and in the
 * text a copy or a screen reader gets. `short`: cut to its first characters (a UUID).
 */
export function LongText(props: { text: string; short?: boolean }) {
  return props.short ? (
    <span class="long-text" title={props.text}>
      <span aria-hidden="true">{shortIdText(props.text)}</span>
      <span class="visually-hidden">{props.text}</span>
    </span>
  ) : (
    <span class="long-text" title={props.text}>
      {props.text}
    </span>
  );
}

/** A table cell that names its column on narrow screens, where rows stack (the value in one box beside the name). */
export function Cell(props: { label: string; class?: string; children?: ComponentChildren }) {
  return (
    <td data-label={props.label} class={props.class}>
      <div class="value">{props.children}</div>
    </td>
  );
}

/** A column of a `DataTable`: its header, and `num` for figures (right-aligned, CONTRACT §17.2). */
export type Column = string | { label: string; num?: boolean };

/**
 * The pages' table (CONTRACT §17): `<table class="data">` with its caption (`captionHidden`: for
 * screen readers only, where a heading already names it), a header cell per column, the rows, or
 * one row saying `empty` across every column when there are none. Each row is the page's own
 * (`<tr>` of `Cell`s, whose labels the narrow layout shows).
 */
export function DataTable<T>(props: {
  caption: string;
  captionHidden?: boolean;
  columns: readonly Column[];
  rows: readonly T[];
  empty: ComponentChildren;
  row: (item: T) => VNode;
  testId?: string;
  class?: string;
}) {
  return (
    <table class={props.class ? `data ${props.class}` : 'data'} data-testid={props.testId}>
      <caption class={props.captionHidden ? 'visually-hidden' : undefined}>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((column) =>
            typeof column === 'string' ? (
              <th scope="col">{column}</th>
            ) : (
              <th scope="col" class={column.num ? 'num' : undefined}>
                {column.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {props.rows.length === 0 ? (
          <tr>
            <td colspan={props.columns.length}>{props.empty}</td>
          </tr>
        ) : (
          props.rows.map(props.row)
        )}
      </tbody>
    </table>
  );
}
