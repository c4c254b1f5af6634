/**
 * `/admin`'s "Books" section (CONTRACT §22, §17.1): date fields "From" and "To", button "Check the
 * books", and table "Checks" with each check's name as the API spells it and "ok" or "failed". A GET
 * form on /admin: the page answers with the reconciliation of that period (the same service as
 * `GET /api/admin/reconciliation`), its error in the form's alert, the outcome in a status line.
 */
import { Cell, Money } from '../../http/pages/components';
import { wholeNumberText } from '../../http/pages/formats';
import type { Reconciliation } from './reconciliation.service';

export interface BooksSectionState {
  from?: string;
  to?: string;
}

export interface BooksSectionProps {
  state: BooksSectionState;
  /** The reconciliation asked for, the API's message when it refused the period, or null before "Check the books". */
  result: Reconciliation | { error: string } | null;
}

function DateField(props: { id: string; label: string; name: string; value?: string; hint: string }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} name={props.name} type="date" value={props.value} aria-describedby={`${props.id}-hint`} />
      <small id={`${props.id}-hint`} class="hint">
        {props.hint}
      </small>
    </div>
  );
}

/** The one line a check's failure reads as in the table: its first rule, and how many more. */
function failureText(check: Reconciliation['checks'][number]): string {
  const [first, ...more] = check.details.problems;
  if (!first) return '';
  const rest = more.length > 0 ? ` (and ${more.length} more rule${more.length === 1 ? '' : 's'})` : '';
  return `${first.rule.charAt(0).toUpperCase()}${first.rule.slice(1)}${rest}.`;
}

export function BooksSection(props: BooksSectionProps) {
  const { state, result } = props;
  const error = result && 'error' in result ? result.error : '';
  const books = result && !('error' in result) ? result : null;
  const failed = books ? books.checks.filter((check) => !check.ok) : [];
  return (
    <section id="books" class="admin-section" aria-labelledby="books-heading" tabindex={-1}>
      <h2 id="books-heading">Books</h2>
      <form method="get" action="/admin#books" class="search" aria-labelledby="books-form-heading">
        <h3 id="books-form-heading" class="visually-hidden">
          Check the books
        </h3>
        <DateField id="books-from" label="From" name="booksFrom" value={state.from} hint="First day of the period (UTC). Empty: the first of this month." />
        <DateField id="books-to" label="To" name="booksTo" value={state.to} hint="Last day (UTC), at most today. Empty: today." />
        <div class="actions">
          <button type="submit" class="button primary" name="books" value="check">
            Check the books
          </button>
        </div>
        <p class="form-error" role="alert">
          {error}
        </p>
      </form>
      {books ? (
        <>
          <p class="status" role="status">
            {failed.length === 0
              ? `The books hold: all ${books.checks.length} checks are ok (flows from ${books.from} to ${books.to}).`
              : `${failed.length} of ${books.checks.length} checks failed: ${failed.map((check) => check.name).join(', ')}.`}
          </p>
          <table class="data">
            <caption>Checks</caption>
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Result</th>
                <th scope="col">What is wrong</th>
              </tr>
            </thead>
            <tbody>
              {books.checks.map((check) => (
                <tr>
                  <Cell label="Check">
                    <span class="mono">{check.name}</span>
                  </Cell>
                  <Cell label="Result" class={check.ok ? 'status-published' : 'status-suspended'}>
                    {check.ok ? 'ok' : 'failed'}
                  </Cell>
                  <Cell label="What is wrong">{check.ok ? '—' : failureText(check)}</Cell>
                </tr>
              ))}
            </tbody>
          </table>
          <dl class="facts">
            {[
              ['Coins purchased', wholeNumberText(books.coins.purchased)],
              ['Coins spent', wholeNumberText(books.coins.spent)],
              ['Developers earned', <Money usd={books.usd.developerEarned} />],
              ['Paid out', <Money usd={books.usd.paidOut} />],
              ['Platform share', <Money usd={books.usd.platformShare} />],
              ['Coins in wallets now', wholeNumberText(books.now.walletBalances)],
            ].map(([term, value]) => (
              <div>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : (
        <p class="hint">Checks every ledger, chain and identity of the books over all time, and sums the period's flows.</p>
      )}
    </section>
  );
}
