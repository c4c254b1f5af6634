/**
 * The statement part of `/developer/payouts` (CONTRACT §22, §17.1): select "Month" (options `YYYY-MM`,
 * newest first; choosing one reloads the page for it), table "Statement" (caption) with a row per
 * game and the total, and link "Download CSV" to the month's `?format=csv`.
 */
import { Cell, FilterForm, Money } from '../../http/pages/components';
import { moneyText, wholeNumberText } from '../../http/pages/formats';
import { millsToUsd, usdToMills } from '../wallet';
import type { StatementLine } from './statement.rules';
import type { Statement } from './statements.service';

export interface StatementSectionProps {
  /** `YYYY-MM`, newest first. */
  months: string[];
  statement: Statement;
  /** The page the "Month" choice reloads (its address gains `?month=`). */
  action: string;
}

function Amounts(props: { line: StatementLine }) {
  const { line } = props;
  return (
    <>
      <Cell label="Insertions" class="num">
        {wholeNumberText(line.insertions)}
      </Cell>
      <Cell label="Coins" class="num">
        {wholeNumberText(line.coins)}
      </Cell>
      <Cell label="Gross" class="num">
        <Money usd={line.grossUsd} />
      </Cell>
      <Cell label="Earned" class="num">
        <Money usd={line.earnedUsd} />
      </Cell>
      <Cell label="Voided" class="num">
        <Money usd={line.voidedUsd} />
      </Cell>
      <Cell label="Net" class="num">
        <Money usd={line.netUsd} />
      </Cell>
    </>
  );
}

export function StatementSection(props: StatementSectionProps) {
  const { statement } = props;
  const paidOut = statement.payouts.filter((payout) => payout.status !== 'failed');
  return (
    <section id="statement" aria-labelledby="statement-heading">
      <h2 id="statement-heading">Monthly statements</h2>
      <FilterForm
        action={`${props.action}#statement`}
        select={{
          id: 'statement-month',
          label: 'Month',
          name: 'month',
          value: statement.month,
          options: props.months.map((month) => ({ value: month, label: month })),
          hint: 'Choosing a month shows its statement at once. Earnings count in the month of the insertion, voids in the month of the void (UTC).',
        }}
      />
      <table class="data">
        <caption>Statement</caption>
        <thead>
          <tr>
            <th scope="col">Game</th>
            <th scope="col" class="num">Insertions</th>
            <th scope="col" class="num">Coins</th>
            <th scope="col" class="num">Gross</th>
            <th scope="col" class="num">Earned</th>
            <th scope="col" class="num">Voided</th>
            <th scope="col" class="num">Net</th>
          </tr>
        </thead>
        <tbody>
          {statement.games.length === 0 ? (
            <tr>
              <td colspan={7}>No games yet.</td>
            </tr>
          ) : (
            statement.games.map((game) => (
              <tr>
                <Cell label="Game">
                  <span class="mono">{game.slug}</span>
                </Cell>
                <Amounts line={game} />
              </tr>
            ))
          )}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <Amounts line={statement.total} />
          </tr>
        </tfoot>
      </table>
      <p>
        <a href={`/api/portal/statements/${statement.month}?format=csv`} download={`statement-${statement.month}.csv`}>
          Download CSV
        </a>
      </p>
      <p class="hint">
        {paidOut.length === 0
          ? `No payout was made in ${statement.month}.`
          : `Payouts made in ${statement.month}: ${paidOut.length}, ${moneyText(millsToUsd(paidOut.reduce((sum, payout) => sum + usdToMills(payout.amountUsd), 0)))} (failed ones not counted).`}
      </p>
    </section>
  );
}
