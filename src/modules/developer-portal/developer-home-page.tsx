/** `/developer` (CONTRACT §17.1): become a developer; a developer's games and the "Create game" form. */
import { ApiForm, Cell, DataTable, LongText, Money, NumberField, Submit, TextField } from '../../http/pages/components';
import type { Viewer } from '../../http/pages/layout';
import { DeveloperLayout } from './developer-layout';
import type { GameStatus } from './game.repository';

export interface DeveloperGameRow {
  gameId: string;
  title: string;
  slug: string;
  status: GameStatus;
  currentVersionLabel: string | null;
  /** This calendar month's earnedUsd (UTC), an exact decimal string. */
  earnedThisMonthUsd: string;
}

function BecomeDeveloper(props: { viewer: Viewer }) {
  return (
    <>
      <p class="lead">Developers publish browser games on the arcade, earn 70% of every coin their players insert, and verify insertions from their own servers with API keys.</p>
      {props.viewer.emailVerified ? null : (
        <p class="notice" data-tone="error">
          Verify your e-mail address first: open the link we sent you, then come back.
        </p>
      )}
      <div class="panel narrow">
        <ApiForm method="POST" action="/api/portal/developer" labelledBy="become-heading" flash="You are a developer now.">
          <h2 id="become-heading">Become a developer</h2>
          <TextField id="developer-name" label="Display name" name="displayName" value={props.viewer.displayName} required hint="Your name or your studio's, shown with your games." />
          <Submit>Become a developer</Submit>
        </ApiForm>
      </div>
    </>
  );
}

function YourGames(props: { games: DeveloperGameRow[] }) {
  return (
    <DataTable
      caption="Your games"
      columns={['Title', 'Slug', 'Status', 'Current version', { label: 'Earned this month', num: true }]}
      rows={props.games}
      empty="No games yet: create your first one below."
      row={(game) => (
        <tr>
          <Cell label="Title">
            <a href={`/developer/games/${encodeURIComponent(game.gameId)}`}>{game.title}</a>
          </Cell>
          <Cell label="Slug" class="mono">
            <LongText text={game.slug} />
          </Cell>
          <Cell label="Status">
            <span class={`status status-${game.status}`}>{game.status}</span>
          </Cell>
          <Cell label="Current version" class="nowrap">{game.currentVersionLabel ?? '—'}</Cell>
          <Cell label="Earned this month" class="num">
            <Money usd={game.earnedThisMonthUsd} />
          </Cell>
        </tr>
      )}
    />
  );
}

export function DeveloperHomePage(props: { viewer: Viewer; games: DeveloperGameRow[] }) {
  return (
    <DeveloperLayout title="Developer" viewer={props.viewer} page="developer" current="overview">
      <h1>Developer</h1>
      {props.viewer.developerId ? (
        <>
          <YourGames games={props.games} />
          <div class="panel narrow">
            <ApiForm method="POST" action="/api/portal/games" labelledBy="create-game-heading" flash="Game created.">
              <h2 id="create-game-heading">Create game</h2>
              <TextField id="game-slug" label="Slug" name="slug" required spellcheck={false} hint="Its address: lower-case letters, digits and -, up to 64 characters (/play/your-slug)." />
              <TextField id="game-title" label="Title" name="title" required hint="1 to 80 characters." />
              <NumberField id="game-price" label="Coins per credit" name="coinsPerCredit" value={1} min={1} max={5} required hint="What one credit costs a player: 1 to 5 coins (1 coin = $0.25)." />
              <NumberField id="game-max-score" label="Max score" name="maxScore" min={0} optional hint="Optional: scores above it are refused. Empty: no limit." />
              <Submit>Create game</Submit>
            </ApiForm>
          </div>
        </>
      ) : (
        <BecomeDeveloper viewer={props.viewer} />
      )}
    </DeveloperLayout>
  );
}
