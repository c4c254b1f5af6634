/**
 * The script of every server-rendered page: API forms and small controls everywhere, plus the
 * game page (`/games/{slug}`), which reads the public HTTP API (CONTRACT §5; spec §4.7), and the
 * thumbnail upload of a developer's game page.
 */
import { dateText, wholeNumberText } from '../../http/pages/formats';
import { iconNode, SECRET_ICON } from '../../http/pages/icons';
import { iconSvg } from './dom-icons';
import { showStoredFlash, startApiForms } from './api-forms';
import { startBuyCoins } from './buy-coins';
import { startControls } from './controls';
import { startConfirmDialogs } from './confirm-dialog';
import { startAdmin } from './admin';
import { startVerifyEmail } from './verify-email';
import { startThumbnailUpload } from './thumbnail-upload';
import { startTwoFactor } from './two-factor';


// eslint-disable-next-line @typescript-eslint/no-explicit-any -- our API's JSON answer, read field by field
async function getJson(path: string): Promise<{ status: number; body: any }> {
  try {
    const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    return { status: response.status, body: await response.json().catch(() => ({})) };
  } catch {
    return { status: 0, body: {} };
  }
}

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const element = Object.assign(doc.createElement(tag), props);
  element.append(...children);
  return element;
}

function coins(n: number): string {
  return `${wholeNumberText(n)} ${n === 1 ? 'coin' : 'coins'}`;
}

async function renderGame(doc: Document): Promise<void> {
  const slug = doc.body.dataset.slug!;
  const status = doc.getElementById('game-status')!;
  const game = await getJson(`/api/games/${encodeURIComponent(slug)}`);
  if (game.status !== 200) {
    status.textContent = game.status === 404 ? 'This game is not available.' : 'The game could not be loaded.';
    doc.getElementById('play')!.hidden = true;
    return;
  }
  doc.title = `${game.body.title} — Arcade`;
  doc.getElementById('game-title')!.textContent = game.body.title;
  doc.getElementById('game-price')!.textContent = `${coins(game.body.coinsPerCredit)} per credit`;

  const achievements = doc.getElementById('achievements')!;
  const defs = game.body.achievements as { key: string; name: string; description: string; iconKey: string; secret: boolean; unlocked: boolean; unlockedAt: string | null }[];
  achievements.replaceChildren(
    ...defs.map((a) => {
      const hidden = a.secret && !a.unlocked;
      return el(doc, 'li', { className: `achievement${a.unlocked ? ' unlocked' : ''}${hidden ? ' secret' : ''}` },
        el(doc, 'span', { className: 'achievement-icon', ariaHidden: 'true' }, iconSvg(hidden ? SECRET_ICON : iconNode(a.iconKey))),
        el(doc, 'span', { className: 'achievement-text' },
          el(doc, 'strong', {}, a.name),
          el(doc, 'span', {}, a.description),
        ),
        el(doc, 'span', { className: 'achievement-state' }, ...(a.unlocked ? ['Unlocked ', timeEl(doc, a.unlockedAt!, dateText)] : ['Locked'])),
      );
    }),
  );
  if (defs.length === 0) achievements.append(el(doc, 'li', { className: 'empty' }, 'This game has no achievements.'));

  const board = doc.getElementById('board')!;
  const boardStatus = doc.getElementById('board-status')!;
  const tabs = Array.from(doc.querySelectorAll<HTMLButtonElement>('.tab'));

  async function loadBoard(period: string): Promise<void> {
    tabs.forEach((tab) => tab.setAttribute('aria-pressed', String(tab.dataset.period === period)));
    const answer = await getJson(`/api/games/${encodeURIComponent(slug)}/scores?period=${period}`);
    if (answer.status !== 200) {
      boardStatus.textContent = 'The leaderboard could not be loaded.';
      return;
    }
    const scores = answer.body.scores as { rank: number; initials: string; score: string; achievedAt: string }[];
    board.replaceChildren(
      ...scores.map((s) =>
        el(doc, 'tr', {},
          el(doc, 'td', {}, String(s.rank)),
          el(doc, 'td', { className: 'initials-cell' }, s.initials),
          el(doc, 'td', { className: 'num' }, wholeNumberText(s.score)),
          el(doc, 'td', {}, timeEl(doc, s.achievedAt, dateText)),
        ),
      ),
    );
    board.querySelectorAll('tr').forEach((row) => row.setAttribute('data-testid', 'leaderboard-row'));
    boardStatus.textContent = scores.length === 0 ? (period === 'week' ? 'No scores yet this week.' : 'No scores yet: be the first!') : '';
  }

  tabs.forEach((tab) =>
    tab.addEventListener('click', () => {
      void loadBoard(tab.dataset.period!);
      void loadBest(doc, slug, tab.dataset.period!);
    }),
  );
  await Promise.all([loadBoard('all'), loadBest(doc, slug, 'all')]);
}

/** A `<time>` reading `text(iso)` (CONTRACT §17.2's formats). */
function timeEl(doc: Document, iso: string, text: (iso: string) => string): HTMLTimeElement {
  return el(doc, 'time', { dateTime: iso }, text(iso));
}

/** Why "Your best" cannot be shown, by the API's error code. */
const BEST_REFUSALS: Record<string, string> = {
  EMAIL_NOT_VERIFIED: 'Verify your e-mail to see your best: the link is in the e-mail we sent you.',
  ACCOUNT_NOT_LINKED: 'Your best shows once your account has a player profile.',
};

/**
 * "Your best" of the period the board shows (CONTRACT §17.2): score, initials, rank among every
 * score with initials, date. Only a signed-in visitor's page has the list to fill.
 */
async function loadBest(doc: Document, slug: string, period: string): Promise<void> {
  const list = doc.getElementById('best');
  const status = doc.getElementById('best-status');
  if (!list || !status) return;
  // Only the answer for the period asked last is shown (tabs clicked quickly).
  const ticket = String(Number(list.dataset.ticket ?? '0') + 1);
  list.dataset.ticket = ticket;
  const answer = await getJson(`/api/games/${encodeURIComponent(slug)}/leaderboard/me?period=${period}`);
  if (list.dataset.ticket !== ticket) return;
  const best = answer.status === 200 ? (answer.body.best as { score: string; initials: string | null; achievedAt: string; rank: number } | null) : null;
  list.hidden = best === null;
  if (answer.status !== 200) {
    status.textContent = BEST_REFUSALS[answer.body.error as string] ?? 'Your best could not be loaded. Reload the page to try again.';
    return;
  }
  if (best === null) {
    status.textContent = period === 'week' ? 'You have no score this week yet.' : 'You have no score in this game yet: play a round to set one.';
    return;
  }
  const fact = (term: string, ...value: (Node | string)[]) => el(doc, 'div', {}, el(doc, 'dt', {}, term), el(doc, 'dd', {}, ...value));
  list.replaceChildren(
    fact('Score', wholeNumberText(best.score)),
    fact('Rank', wholeNumberText(best.rank)),
    fact('Initials', best.initials ?? '—'),
    fact('When', timeEl(doc, best.achievedAt, dateText)),
  );
  status.textContent = best.initials === null ? 'This score has no initials, so it is not on the board: the rank is the place it would take there.' : '';
}

export function startPages(doc: Document, win: Window): void {
  startApiForms(doc, win);
  startControls(doc, win);
  startConfirmDialogs(doc);
  startBuyCoins(doc, win);
  startVerifyEmail(doc);
  startTwoFactor(doc, win);
  showStoredFlash(doc, win);
  const page = doc.body.dataset.page;
  if (page === 'game') void renderGame(doc);
  if (page === 'admin') startAdmin(doc, win);
  if (page === 'developer-game') startThumbnailUpload(doc);
}
