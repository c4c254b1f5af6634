/**
 * Server-rendered HTML of the arcade's pages. Dynamic data is fetched by the page scripts from
 * the public HTTP API; what the server puts in the page is escaped here.
 */

import { escapeHtml, pageCsp } from '../http/html-page';

export { escapeHtml };

/** CSP of the catalogue and game pages: our own scripts and styles, our own API, never framed. */
export const PAGE_CSP = pageCsp("'self'");

/** CSP of the host page: as a page, plus the game's entry origin as the only frame source. */
export function hostCsp(frameSource: string): string {
  return `${PAGE_CSP}; frame-src ${frameSource}`;
}

/** CSP of the demo game: its own files only, no network, framed by our host page only. */
export const DEMO_GAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

function layout(options: { title: string; page: string; body: string; script?: string; data?: Record<string, string> }): string {
  const data = Object.entries(options.data ?? {})
    .map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="/assets/arcade.css">
<script src="/assets/pages.js" defer></script>${options.script ? `\n<script src="/assets/${options.script}.js" defer></script>` : ''}
</head>
<body data-page="${options.page}"${data}>
<a class="skip" href="#main">Skip to content</a>
<header class="topbar">
  <a class="brand" href="/"><span aria-hidden="true">🕹️</span> Arcade</a>
  <nav aria-label="Account" id="account" class="account"><a href="/auth/login">Sign in</a></nav>
</header>
${options.body}
<footer class="footer"><a href="/docs">API documentation</a> · <a href="/sdk/v1.d.ts">SDK types</a></footer>
</body>
</html>
`;
}

export function cataloguePage(): string {
  return layout({
    title: 'Arcade — play',
    page: 'catalogue',
    body: `<main id="main" class="wrap">
  <section class="hero">
    <h1>Insert coin</h1>
    <p>Pick a game, drop a coin, chase the high score.</p>
  </section>
  <h2 id="games-heading">Games</h2>
  <p class="status" id="games-status" role="status">Loading games…</p>
  <ul class="cards" id="games" aria-labelledby="games-heading"></ul>
  <button type="button" class="button secondary" id="more" hidden>More games</button>
  <noscript><p>The game list needs JavaScript.</p></noscript>
</main>`,
  });
}

export function gamePage(slug: string): string {
  return layout({
    title: `Arcade — ${slug}`,
    page: 'game',
    data: { slug },
    body: `<main id="main" class="wrap" data-testid="game-page">
  <section class="hero">
    <h1 id="game-title">${escapeHtml(slug)}</h1>
    <p id="game-price" class="price"></p>
    <a class="button primary" id="play" href="/play/${escapeHtml(slug)}">Play</a>
  </section>
  <p class="status" id="game-status" role="status"></p>
  <div class="columns">
    <section aria-labelledby="board-heading" class="panel">
      <h2 id="board-heading">High scores</h2>
      <div class="tabs" role="group" aria-label="Period">
        <button type="button" class="tab" data-period="all" aria-pressed="true">All time</button>
        <button type="button" class="tab" data-period="week" aria-pressed="false">This week</button>
      </div>
      <table class="board" data-testid="leaderboard">
        <caption class="visually-hidden">Top ten scores</caption>
        <thead><tr><th scope="col">Rank</th><th scope="col">Player</th><th scope="col" class="num">Score</th><th scope="col">When</th></tr></thead>
        <tbody id="board"></tbody>
      </table>
      <p class="status" id="board-status" role="status"></p>
    </section>
    <section aria-labelledby="achievements-heading" class="panel">
      <h2 id="achievements-heading">Achievements</h2>
      <ul class="achievements" id="achievements" data-testid="achievements"></ul>
    </section>
  </div>
  <noscript><p>The leaderboard needs JavaScript.</p></noscript>
</main>`,
  });
}

export function hostPage(game: { slug: string; title: string; entryUrl: string; preview: boolean }): string {
  return layout({
    title: `${game.title} — Arcade`,
    page: 'host',
    script: 'host',
    body: `<main id="main" class="host">
  <div id="host" data-slug="${escapeHtml(game.slug)}" data-title="${escapeHtml(game.title)}" data-entry-url="${escapeHtml(game.entryUrl)}" data-preview="${game.preview}">
    <div class="host-bar">
      <h1 class="host-title">${escapeHtml(game.title)} <span id="mode" class="badge" hidden>Preview · no coins charged</span></h1>
      <p class="wallet">Balance: <strong data-testid="balance" aria-live="polite">…</strong></p>
      <a class="button secondary" href="/games/${escapeHtml(game.slug)}">Leaderboard</a>
    </div>
    <p class="message" data-testid="message" role="status" aria-live="polite"></p>
    <button type="button" class="button primary" id="restart" hidden>Start a new session</button>
    <form id="initials-form" class="initials" hidden>
      <label for="initials">New high score <strong id="initials-score"></strong>! Your initials (three letters):</label>
      <input id="initials" data-testid="initials-input" name="initials" autocomplete="off" autocapitalize="characters"
        spellcheck="false" maxlength="3" pattern="[A-Za-z]{3}" required aria-describedby="initials-help">
      <button type="submit" class="button primary" data-testid="initials-submit">Save</button>
      <small id="initials-help">Shown on the leaderboard; used for your future high scores too.</small>
    </form>
    <div id="stage" class="stage"></div>
    <div class="celebration" data-testid="celebration" role="dialog" aria-modal="true" aria-labelledby="celebration-heading" hidden>
      <div class="celebration-card">
        <h2 id="celebration-heading">Unlocked!</h2>
        <ul id="celebration-list" class="rewards"></ul>
        <button type="button" class="button primary" id="celebration-close">Keep playing</button>
      </div>
    </div>
  </div>
</main>`,
  });
}

export function messagePage(title: string, text: string): string {
  return layout({
    title: `Arcade — ${title}`,
    page: 'message',
    body: `<main id="main" class="wrap"><section class="hero"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><a class="button primary" href="/">All games</a></section></main>`,
  });
}
