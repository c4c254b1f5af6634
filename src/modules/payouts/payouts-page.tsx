/**
 * `/developer/payouts` (CONTRACT §22, §17): description list "Balance", "Held", "Available",
 * "Minimum payout"; form "Payout method" ("Method", "Stripe account id", "Save payout method");
 * the statement part (select "Month", table "Statement", link "Download CSV"), which the books
 * work renders into `statement`; table "Payouts".
 */
import type { ComponentChildren } from 'preact';
import { ApiForm, Cell, DataTable, LongText, Money, Select, Submit, TextField, When } from '../../http/pages/components';
import type { DeveloperViewer } from '../../http/pages/page-auth';
import { DeveloperLayout } from '../developer-portal';
import type { BalanceView } from './payouts.service';
import type { PayoutView } from './payouts.views';

export interface PayoutsPageProps {
  viewer: DeveloperViewer;
  balance: BalanceView;
  payouts: PayoutView[];
  /** The older page's address, null at the end. */
  olderHref: string | null;
  /** The statement part of the page (CONTRACT §22: "Month", "Statement", "Download CSV"): filled by the statements' page code. */
  statement?: ComponentChildren;
}

const STATUS_WORDS: Record<PayoutView['status'], string> = { pending: 'pending', paid: 'paid', failed: 'failed' };

function MethodText(props: { method: PayoutView['method'] }) {
  return props.method.kind === 'stripe' ? (
    <>
      Stripe <span class="mono"><LongText text={props.method.accountId ?? ''} /></span>
    </>
  ) : (
    <>sandbox</>
  );
}

export function PayoutsPage(props: PayoutsPageProps) {
  const { balance } = props;
  const method = balance.payoutMethod;
  return (
    <DeveloperLayout title="Payouts" viewer={props.viewer} page="developer-payouts" current="payouts">
      <h1>Payouts</h1>
      <p class="lead">
        You earn 70% of every paid insertion. Earnings of the last days are held for voids and disputes; what is available is paid in
        whole cents by the next payout run once it reaches the minimum.
      </p>
      <dl class="facts" aria-label="Your balance">
        <div>
          <dt>Balance</dt>
          <dd>
            <Money usd={balance.balanceUsd} />
          </dd>
        </div>
        <div>
          <dt>Held</dt>
          <dd>
            <Money usd={balance.heldUsd} />
          </dd>
        </div>
        <div>
          <dt>Available</dt>
          <dd>
            <Money usd={balance.availableUsd} />
          </dd>
        </div>
        <div>
          <dt>Minimum payout</dt>
          <dd>
            <Money usd={balance.minimumPayoutUsd} />
          </dd>
        </div>
      </dl>
      {method === null ? <p class="notice">Set a payout method below: payout runs pay only developers who have one.</p> : null}

      <div class="panel narrow">
        <ApiForm method="PUT" action="/api/portal/payout-method" labelledBy="payout-method-heading" flash="Payout method saved: the next payout run uses it.">
          <h2 id="payout-method-heading">Payout method</h2>
          <Select
            id="payout-method-kind"
            label="Method"
            name="kind"
            value={method?.kind ?? 'sandbox'}
            options={[
              { value: 'sandbox', label: 'sandbox' },
              { value: 'stripe', label: 'stripe' },
            ]}
            hint="sandbox: an admin marks each payout paid; stripe: a transfer to your Stripe Connect account."
          />
          <TextField
            id="payout-method-account"
            label="Stripe account id"
            name="accountId"
            value={method?.accountId ?? ''}
            optional
            spellcheck={false}
            autocomplete="off"
            hint="With stripe: your Stripe Connect account id, such as acct_1Nv0FGQ9RKHgCVdK. Not used with sandbox."
          />
          <Submit>Save payout method</Submit>
        </ApiForm>
      </div>

      {/* ── Statements (CONTRACT §22: select "Month", table "Statement", link "Download CSV") ──
          Rendered by the statements' page code (books) through `statement`; nothing here otherwise. */}
      {props.statement ?? null}

      <section aria-labelledby="payouts-heading">
        <h2 id="payouts-heading" class="visually-hidden">
          Your payouts
        </h2>
        <DataTable
          caption="Payouts"
          columns={['Created', { label: 'Amount', num: true }, 'Status', 'Method', 'Reference', 'Paid']}
          rows={props.payouts}
          empty="No payouts yet."
          row={(payout) => (
            <tr data-payout-id={payout.payoutId}>
              <Cell label="Created">
                <When at={payout.createdAt} />
              </Cell>
              <Cell label="Amount" class="num">
                <Money usd={payout.amountUsd} />
              </Cell>
              <Cell label="Status" class={`status-${payout.status}`}>
                {payout.status === 'failed' && payout.failureReason ? `${STATUS_WORDS.failed}: ${payout.failureReason}` : STATUS_WORDS[payout.status]}
              </Cell>
              <Cell label="Method">
                <MethodText method={payout.method} />
              </Cell>
              <Cell label="Reference">{payout.reference ? <LongText text={payout.reference} /> : '—'}</Cell>
              <Cell label="Paid">
                <When at={payout.paidAt} />
              </Cell>
            </tr>
          )}
        />
        {props.olderHref ? (
          <p class="pager">
            <a href={props.olderHref}>Older</a>
          </p>
        ) : null}
      </section>
    </DeveloperLayout>
  );
}
