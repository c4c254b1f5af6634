/**
 * `/developer/earnings` (CONTRACT §17.1): select "Game" (all games or one; choosing reloads the
 * page), table "Earnings" (every game, as §3), the chart of the last 30 days' earnedUsd and the
 * same numbers in table "Daily earnings".
 */
import { dateText, moneyText, wholeNumberText } from '../../http/pages/formats';
import { Cell, FilterForm, LongText, Money } from '../../http/pages/components';
import type { DeveloperViewer } from '../../http/pages/page-auth';
import { millsToUsd, usdToMills } from '../wallet';
import type { DailyEarnings, EarningsReport } from '../wallet';
import { DeveloperLayout } from './developer-layout';
import { EarningsChart } from './earnings-chart';

export interface EarningsPageProps {
  viewer: DeveloperViewer;
  /** The developer's games, for the select and the table's titles. */
  games: { gameId: string; title: string }[];
  /** The chosen game, or null for all games. */
  gameId: string | null;
  report: EarningsReport;
  daily: DailyEarnings;
}

export function EarningsPage(props: EarningsPageProps) {
  const titles = new Map(props.games.map((game) => [game.gameId, game.title]));
  const scope = props.gameId ? titles.get(props.gameId) ?? '' : 'all games';
  const days = props.daily.days;
  const earned = millsToUsd(days.reduce((sum, day) => sum + usdToMills(day.earnedUsd), 0));
  const label = days.length > 0 ? `Daily earnings, last ${days.length} days, ${scope}: ${dateText(days[0]!.date)} to ${dateText(days.at(-1)!.date)}` : `Daily earnings, ${scope}`;
  return (
    <DeveloperLayout title="Earnings" viewer={props.viewer} page="developer-earnings" current="earnings">
      <h1>Earnings</h1>
      <p class="lead">1 coin = $0.25; you earn 70% of every paid insertion. Amounts in US dollars, exact to a tenth of a cent.</p>
      <table class="data">
        <caption>Earnings</caption>
        <thead>
          <tr>
            <th scope="col">Game</th>
            <th scope="col">Slug</th>
            <th scope="col" class="num">Insertions</th>
            <th scope="col" class="num">Coins</th>
            <th scope="col" class="num">Gross</th>
            <th scope="col" class="num">Earned</th>
          </tr>
        </thead>
        <tbody>
          {props.report.games.length === 0 ? (
            <tr>
              <td colspan={6}>No games yet.</td>
            </tr>
          ) : (
            props.report.games.map((game) => (
              <tr>
                <Cell label="Game">{titles.get(game.gameId) ?? game.slug}</Cell>
                <Cell label="Slug" class="mono">
                  <LongText text={game.slug} />
                </Cell>
                <Cell label="Insertions" class="num">{wholeNumberText(game.insertions)}</Cell>
                <Cell label="Coins" class="num">{wholeNumberText(game.coins)}</Cell>
                <Cell label="Gross" class="num">
                  <Money usd={game.grossUsd} />
                </Cell>
                <Cell label="Earned" class="num">
                  <Money usd={game.earnedUsd} />
                </Cell>
              </tr>
            ))
          )}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <Cell label="Slug"></Cell>
            <Cell label="Insertions" class="num">{wholeNumberText(props.report.total.insertions)}</Cell>
            <Cell label="Coins" class="num">{wholeNumberText(props.report.total.coins)}</Cell>
            <Cell label="Gross" class="num">
              <Money usd={props.report.total.grossUsd} />
            </Cell>
            <Cell label="Earned" class="num">
              <Money usd={props.report.total.earnedUsd} />
            </Cell>
          </tr>
        </tfoot>
      </table>

      <section aria-labelledby="daily-heading">
        <h2 id="daily-heading">The last {days.length} days</h2>
        <FilterForm
          action="/developer/earnings"
          select={{
            id: 'earnings-game',
            label: 'Game',
            name: 'gameId',
            value: props.gameId ?? '',
            options: [{ value: '', label: 'All games' }, ...props.games.map((game) => ({ value: game.gameId, label: game.title }))],
            hint: 'Choosing a game shows its days at once.',
          }}
        />
        <EarningsChart days={days} label={label} />
        <p class="hint">{`Earned in these ${days.length} days: ${moneyText(earned)}.`}</p>
        <table class="data">
          <caption>Daily earnings</caption>
          <thead>
            <tr>
              <th scope="col">Date (UTC)</th>
              <th scope="col" class="num">Insertions</th>
              <th scope="col" class="num">Coins</th>
              <th scope="col" class="num">Earned</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr>
                <Cell label="Date (UTC)">
                  <time datetime={day.date}>{dateText(day.date)}</time>
                </Cell>
                <Cell label="Insertions" class="num">{wholeNumberText(day.insertions)}</Cell>
                <Cell label="Coins" class="num">{wholeNumberText(day.coins)}</Cell>
                <Cell label="Earned" class="num">
                  <Money usd={day.earnedUsd} />
                </Cell>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </DeveloperLayout>
  );
}
