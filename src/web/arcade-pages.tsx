/**
 * The players' pages: the catalogue (`/`), a game's page (`/games/{slug}`) and the host page that
 * runs a game (`/play/{slug}`). The catalogue is rendered here, search and paging included (it
 * works without script); the game page reads the board and achievements from the public API in
 * the browser; the host page alone carries the game's entry URL (CONTRACT §16.25).
 */
import type { CatalogueGame } from '../modules/catalogue';
import { BuyCoins, PackOnSale } from '../modules/payments';

import { wholeNumberText } from '../http/pages/formats';
import { ICON_NODES } from '../http/pages/icons';
import { SvgIcon } from '../http/pages/components';
import { Layout, Viewer } from '../http/pages/layout';
import { VerifyEmailNotice } from './verify-email-notice';

function coins(n: number): string {
  return `${wholeNumberText(n)} ${n === 1 ? 'coin' : 'coins'}`;
}

/** What the catalogue shows: a page of games, the search typed (trimmed; '' for none) and why it was refused. */
export interface CatalogueView {
  games: CatalogueGame[];
  /** The address of the next page, null on the last. */
  morePath: string | null;
  query: string;
  queryError: string | null;
}

/**
 * A game's picture beside its name: decorative (alt="": the title next to it says everything a
 * screen reader needs), a drawn placeholder when the game has none.
 */
function Thumbnail(props: { url: string | null; class: string; eager?: boolean }) {
  return props.url ? (
    <img class={props.class} src={props.url} alt="" width={640} height={360} loading={props.eager ? 'eager' : 'lazy'} decoding="async" />
  ) : (
    <span class={`${props.class} thumb-placeholder`} aria-hidden="true">
      <SvgIcon node={ICON_NODES.joystick} />
    </span>
  );
}

function GameCard(props: { game: CatalogueGame; index: number }) {
  const { game } = props;
  const href = `/games/${encodeURIComponent(game.slug)}`;
  return (
    <li class="card">
      {/* The picture leads to the game too, for the mouse; keyboard and screen reader use the title's link. */}
      <a class="card-face" href={href} tabindex={-1} aria-hidden="true">
        <Thumbnail url={game.thumbnailUrl} class="card-thumb" eager={props.index < 4} />
      </a>
      <h3>
        <a href={href}>{game.title}</a>
      </h3>
      {game.description ? <p class="card-description">{game.description}</p> : null}
      <p class="price">{`${coins(game.coinsPerCredit)} per credit`}</p>
      <a href={`/play/${encodeURIComponent(game.slug)}`} class="button primary">
        Play
      </a>
    </li>
  );
}

function SearchForm(props: { query: string; error: string | null }) {
  return (
    <form class="search" role="search" method="get" action="/">
      <div class="field">
        <label for="search-games">Search games</label>
        <div class="search-row">
          <input
            id="search-games"
            type="search"
            name="query"
            value={props.query}
            maxlength={100}
            autocomplete="off"
            spellcheck={false}
            aria-describedby="search-games-hint"
            aria-invalid={props.error ? 'true' : undefined}
          />
          <button type="submit" class="button secondary">
            Search
          </button>
        </div>
        <small id="search-games-hint" class="hint">
          A title or a slug, or a part of one.
        </small>
      </div>
      <p class="form-error" role="alert">
        {props.error ?? ''}
      </p>
    </form>
  );
}

export function CataloguePage(props: { viewer: Viewer | null; view: CatalogueView }) {
  const { games, query, queryError, morePath } = props.view;
  const searched = query !== '' && !queryError;
  return (
    <Layout title="Play" viewer={props.viewer} page="catalogue" section="games" path="/">
      <section class="hero">
        <h1>Insert coin</h1>
        <p>Pick a game, drop a coin, chase the high score.</p>
      </section>
      <div class="catalogue-head">
        <h2 id="games-heading">Games</h2>
        <SearchForm query={query} error={queryError} />
      </div>
      <p class="status" id="games-status" role="status">
        {searched ? (
          <>
            {games.length === 0 ? `No games match “${query}”.` : `Games whose title or slug contains “${query}”.`} <a href="/">Show all games</a>
          </>
        ) : games.length === 0 ? (
          'No games are published yet.'
        ) : (
          ''
        )}
      </p>
      <ul class="cards" id="games" aria-labelledby="games-heading">
        {games.map((game, index) => (
          <GameCard game={game} index={index} />
        ))}
      </ul>
      {morePath ? (
        <a class="button secondary" href={morePath} rel="next">
          More games
        </a>
      ) : null}
    </Layout>
  );
}

/**
 * "Your best" under the board (CONTRACT §17.2): the page script fills it for a signed-in visitor
 * from GET /api/games/{slug}/leaderboard/me for the period the board shows; a signed-out one is
 * offered to sign in.
 */
function YourBest(props: { viewer: Viewer | null; path: string }) {
  return (
    <section aria-labelledby="best-heading" class="your-best" data-testid="your-best">
      <h3 id="best-heading">Your best</h3>
      {props.viewer ? (
        <>
          <dl class="facts" id="best" hidden></dl>
          <p class="status" id="best-status" role="status">
            Loading your best…
          </p>
        </>
      ) : (
        <p>
          <a href={`/auth/login?next=${encodeURIComponent(props.path)}`}>Sign in to see your best</a>
        </p>
      )}
    </section>
  );
}

/** A game's description as its developer wrote it: plain text, its line breaks kept (CSS `white-space: pre-line`). */
function Description(props: { text: string | null }) {
  return props.text ? (
    <p class="game-description" data-testid="game-description">
      {props.text}
    </p>
  ) : null;
}

export function GamePage(props: { viewer: Viewer | null; slug: string; title: string; description: string | null; thumbnailUrl: string | null }) {
  const path = `/games/${props.slug}`;
  return (
    <Layout title={props.title} viewer={props.viewer} page="game" section="games" path={path} data={{ slug: props.slug }}>
      <div data-testid="game-page">
        <section class={`hero game-hero${props.thumbnailUrl ? ' with-thumb' : ''}`}>
          {props.thumbnailUrl ? <Thumbnail url={props.thumbnailUrl} class="game-thumb" eager /> : null}
          <div class="game-hero-text">
            <h1 id="game-title">{props.title}</h1>
            <Description text={props.description} />
            <p id="game-price" class="price"></p>
            <a class="button primary" id="play" href={`/play/${props.slug}`}>
              Play
            </a>
          </div>
        </section>
        <p class="status" id="game-status" role="status"></p>
        <div class="columns">
          <section aria-labelledby="board-heading" class="panel">
            <h2 id="board-heading">High scores</h2>
            <div class="tabs" role="group" aria-label="Period">
              <button type="button" class="tab" data-period="all" aria-pressed="true">
                All time
              </button>
              <button type="button" class="tab" data-period="week" aria-pressed="false">
                This week
              </button>
            </div>
            <table class="board" data-testid="leaderboard">
              <caption class="visually-hidden">Top ten scores</caption>
              <thead>
                <tr>
                  <th scope="col">Rank</th>
                  <th scope="col">Player</th>
                  <th scope="col" class="num">
                    Score
                  </th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody id="board"></tbody>
            </table>
            <p class="status" id="board-status" role="status"></p>
            <YourBest viewer={props.viewer} path={path} />
          </section>
          <section aria-labelledby="achievements-heading" class="panel">
            <h2 id="achievements-heading">Achievements</h2>
            <ul class="achievements" id="achievements" data-testid="achievements"></ul>
          </section>
        </div>
        <noscript>
          <p>The leaderboard needs JavaScript.</p>
        </noscript>
      </div>
    </Layout>
  );
}

export interface HostedGame {
  slug: string;
  title: string;
  /** Shown under the game (CONTRACT §17.2); null when none. */
  description: string | null;
  entryUrl: string;
  preview: boolean;
  /** The version a preview plays when the developer named one (`?version=`). */
  versionId: string | null;
}

export function HostPage(props: { viewer: Viewer; game: HostedGame; packs: PackOnSale[] }) {
  const { game } = props;
  return (
    <Layout title={game.title} viewer={props.viewer} page="host" section="games" scripts={['host']} mainClass="host">
      <div
        id="host"
        data-slug={game.slug}
        data-title={game.title}
        data-entry-url={game.entryUrl}
        data-preview={String(game.preview)}
        data-version-id={game.versionId ?? undefined}
        data-initials={props.viewer.playerInitials ?? undefined}
      >
        <div class="host-bar">
          <h1 class="host-title">
            {game.title}{' '}
            <span id="mode" class="badge" hidden>
              Preview · no coins charged
            </span>
          </h1>
          <p class="wallet">
            Balance:{' '}
            <strong data-testid="balance" aria-live="polite">
              …
            </strong>
          </p>
          <a class="button secondary" href={`/games/${game.slug}`}>
            Leaderboard
          </a>
        </div>
        {/* Shown at once to an unverified account, and by the host script when the API says EMAIL_NOT_VERIFIED. */}
        <VerifyEmailNotice email={props.viewer.email} hidden={props.viewer.emailVerified} />
        <p class="message" data-testid="message" role="status" aria-live="polite"></p>
        {/* Shown by the host script when the balance does not cover a credit; comes back here after paying. */}
        <BuyCoins id="buy-coins" packs={props.packs} returnTo={`/play/${game.slug}`} hidden />
        <button type="button" class="button primary" id="restart" hidden>
          Start a new session
        </button>
        <form id="initials-form" class="initials" hidden>
          {/* The host script asks for the best score still without initials first, and says how many more wait. */}
          <label for="initials">
            High score <strong id="initials-score"></strong>! Your initials (three letters):
          </label>
          <input
            id="initials"
            data-testid="initials-input"
            name="initials"
            autocomplete="off"
            autocapitalize="characters"
            spellcheck={false}
            maxlength={3}
            pattern="[A-Za-z]{3}"
            required
            aria-describedby="initials-more initials-help"
          />
          <button type="submit" class="button primary" data-testid="initials-submit">
            Save
          </button>
          <small id="initials-help">Shown on the leaderboard; used for your future high scores too.</small>
          <small id="initials-more" hidden></small>
        </form>
        <div id="stage" class="stage"></div>
        {game.description ? (
          <section class="game-about" aria-labelledby="about-heading">
            <h2 id="about-heading">About this game</h2>
            <Description text={game.description} />
          </section>
        ) : null}
        {/* CONTRACT §17.2: a full-screen layer that clicks and keys pass through to the game, announced as a status, gone by itself. */}
        <div class="celebration" data-testid="celebration" role="status" hidden>
          <div class="celebration-card">
            <h2 class="celebration-heading">Unlocked!</h2>
            <ul id="celebration-list" class="rewards"></ul>
          </div>
        </div>
      </div>
    </Layout>
  );
}
