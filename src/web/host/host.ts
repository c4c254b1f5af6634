import { wholeNumberText } from '../../http/pages/formats';
import { iconNode } from '../../http/pages/icons';
import { iconSvg } from '../pages/dom-icons';
import { Envelope, HOST_ORIGIN_PARAM, MessageType, parseRequest, reasonForHttpError, Reply } from '../sdk/protocol';

/**
 * The host page's script (`/play/{slug}`): starts the play session, embeds the game in a
 * sandboxed iframe, answers the SDK bridge by calling the public play API with the player's
 * cookie, keeps the session alive, and shows balance, celebrations and the initials prompt.
 */

interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- our API's JSON answer, read field by field
  body: Record<string, any>;
}

/** A saved score of this game still without initials (CONTRACT §16.9's pending list). */
interface WaitingScore {
  scoreId: string;
  sessionId: string;
  /** Decimal digits, as the API writes scores. */
  score: string;
  achievedAt: string;
}

/** Board order: the higher score first, then the earlier one. */
function bestFirst(a: WaitingScore, b: WaitingScore): number {
  if (a.score.length !== b.score.length) return b.score.length - a.score.length;
  if (a.score !== b.score) return a.score < b.score ? 1 : -1;
  return a.achievedAt < b.achievedAt ? -1 : a.achievedAt > b.achievedAt ? 1 : 0;
}

function coinsText(n: number): string {
  return `${wholeNumberText(n)} ${n === 1 ? 'coin' : 'coins'}`;
}

interface PlaySession {
  sessionId: string;
  gameId: string;
  coinsPerCredit: number;
  balance: number;
  testMode: boolean;
  expiresAt: string;
  player: { ref: string; displayName: string };
}


/** Retries of one HTTP call on a network failure or a 5xx, with the same idempotency key. */
const RETRY_DELAYS_MS = [400, 1200];
const MAX_HEARTBEAT_MS = 5 * 60_000;
const MIN_HEARTBEAT_MS = 1_000;
const RETRY_HEARTBEAT_MS = 5_000;
/** How long a celebration stays (CONTRACT §17.2: gone by itself within 4 seconds). */
const CELEBRATION_MS = 3_000;
/** The celebration's words go into its live region this long after it is shown, so they are announced. */
const ANNOUNCE_DELAY_MS = 50;

async function api(method: string, path: string, body?: unknown, keepalive = false): Promise<ApiAnswer> {
  try {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      keepalive,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ApiAnswer.body
    let parsed: Record<string, any> = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = {};
    }
    return { status: response.status, body: parsed };
  } catch {
    return { status: 0, body: {} };
  }
}

async function apiWithRetry(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  let answer = await api(method, path, body);
  for (const delay of RETRY_DELAYS_MS) {
    if (answer.status !== 0 && answer.status < 500) break;
    await new Promise((r) => setTimeout(r, delay));
    answer = await api(method, path, body);
  }
  return answer;
}

function idempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return 'host-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function byTestId<T extends HTMLElement>(root: ParentNode, id: string): T {
  const element = root.querySelector<T>(`[data-testid="${id}"]`);
  if (!element) throw new Error(`host page is missing [data-testid="${id}"]`);
  return element;
}

export function startHost(doc: Document, win: Window): void {
  const root = doc.getElementById('host')!;
  const slug = root.dataset.slug!;
  const entryUrl = root.dataset.entryUrl!;
  const preview = root.dataset.preview === 'true';
  const versionId = root.dataset.versionId;
  const balanceEl = byTestId(doc, 'balance');
  const messageEl = byTestId(doc, 'message');
  const stage = doc.getElementById('stage')!;
  const modeEl = doc.getElementById('mode')!;
  const celebration = byTestId(doc, 'celebration');
  const celebrationList = doc.getElementById('celebration-list')!;
  const verifyNotice = doc.getElementById('verify-email');
  const initialsForm = doc.getElementById('initials-form') as HTMLFormElement;
  const initialsInput = byTestId<HTMLInputElement>(doc, 'initials-input');
  const initialsScore = doc.getElementById('initials-score')!;
  const initialsMore = doc.getElementById('initials-more')!;
  const restart = doc.getElementById('restart') as HTMLButtonElement;
  const buyCoins = doc.getElementById('buy-coins');

  let session: PlaySession | undefined;
  let frame: HTMLIFrameElement | undefined;
  let insertInFlight = false;
  /** This game's saved scores still without initials, best first; the prompt asks for the first. */
  let waiting: WaitingScore[] = [];
  let pendingScore: WaitingScore | undefined;
  /** What to offer in the prompt: the initials the player saved last. */
  let lastInitials = root.dataset.initials ?? '';
  let heartbeatTimer: number | undefined;
  let ended = false;
  let celebrationTimer: number | undefined;
  /** Counts celebrations, so a late fill of an earlier one never overwrites a newer one. */
  let celebrationCount = 0;

  function say(text: string, tone: 'info' | 'error' | 'success' = 'info'): void {
    messageEl.textContent = text;
    messageEl.dataset.tone = tone;
  }

  function showBalance(balance: number): void {
    balanceEl.textContent = coinsText(balance);
    balanceEl.dataset.balance = String(balance);
    // "Buy coins" while the balance does not cover a credit of a paid session (CONTRACT §17.1).
    if (buyCoins) buyCoins.hidden = !session || session.testMode || balance >= session.coinsPerCredit;
  }

  function expired(): void {
    say('Your play session has expired. Start a new one to keep playing.', 'error');
    restart.hidden = false;
    stopHeartbeat();
  }

  function signedOut(): void {
    win.location.assign(`/auth/login?next=${encodeURIComponent(win.location.pathname + win.location.search)}`);
  }

  function handleCommonError(answer: ApiAnswer): void {
    const code = answer.body.error as string | undefined;
    if (answer.status === 401) signedOut();
    else if (answer.status === 410) expired();
    else if (code === 'EMAIL_NOT_VERIFIED') askToVerify();
    else if (code === 'WALLET_FROZEN') say('Your wallet is frozen after a payment dispute: coins cannot be spent until support unfreezes it.', 'error');
    else if (answer.status === 0 || answer.status >= 500) say('The arcade could not be reached. Try again in a moment.', 'error');
  }

  /** "Verify your e-mail" with "Resend e-mail" (CONTRACT §17.2): the notice says it all, the message line stays quiet. */
  function askToVerify(): void {
    if (verifyNotice) verifyNotice.hidden = false;
    say('');
  }

  /** Without a play session the balance still shows: read from the wallet, or "—" when there is none. */
  async function showWalletBalance(): Promise<void> {
    balanceEl.textContent = '—';
    const answer = await api('GET', '/api/me/wallet?limit=1');
    if (answer.status === 200 && typeof answer.body.balance === 'number') showBalance(answer.body.balance);
  }

  /**
   * The full-screen celebration of a first unlock (spec §6.6, CONTRACT §17.2): a layer that never
   * takes the game's input (pointer-events: none, no focus moved, no control of its own), announced
   * as a status, gone by itself after CELEBRATION_MS. What it said stays on /me and the game page.
   */
  function celebrate(rewards: unknown): void {
    if (!Array.isArray(rewards) || rewards.length === 0) return;
    const items = rewards.map((reward: Record<string, unknown>) => {
      const item = doc.createElement('li');
      item.className = `reward reward-${String(reward.kind ?? 'achievement').replace(/[^a-z-]/g, '')}`;
      const icon = doc.createElement('span');
      icon.className = 'reward-icon';
      icon.setAttribute('aria-hidden', 'true');
      icon.append(iconSvg(iconNode(reward.icon)));
      const title = doc.createElement('strong');
      title.textContent = String(reward.title ?? 'Achievement unlocked');
      const subtitle = doc.createElement('span');
      subtitle.className = 'reward-subtitle';
      subtitle.textContent = String(reward.subtitle ?? '');
      item.append(icon, title, subtitle);
      return item;
    });
    const count = ++celebrationCount;
    win.clearTimeout(celebrationTimer);
    if (celebration.hidden) {
      // An empty live region first, then its words: a screen reader announces what is added to a shown region.
      celebrationList.replaceChildren();
      celebration.hidden = false;
      win.setTimeout(() => {
        if (count === celebrationCount && !celebration.hidden) celebrationList.replaceChildren(...items);
      }, ANNOUNCE_DELAY_MS);
    } else {
      celebrationList.replaceChildren(...items);
    }
    celebrationTimer = win.setTimeout(closeCelebration, CELEBRATION_MS);
  }

  function closeCelebration(): void {
    win.clearTimeout(celebrationTimer);
    celebration.hidden = true;
    celebrationList.replaceChildren();
  }

  /**
   * The prompt asks for the best waiting score, and says how many more wait (issue 27 item 12: a
   * better earlier score is never dropped for the latest). Hidden when none waits.
   */
  function offerInitials(focus: boolean): void {
    const [best] = waiting;
    if (!best) {
      pendingScore = undefined;
      initialsForm.hidden = true;
      return;
    }
    const asked = pendingScore?.scoreId === best.scoreId;
    pendingScore = best;
    initialsScore.textContent = wholeNumberText(best.score);
    const more = waiting.length - 1;
    initialsMore.textContent = more === 0 ? '' : `After this one, ${more} more ${more === 1 ? 'score waits' : 'scores wait'} for initials: ${waiting.slice(1).map((w) => wholeNumberText(w.score)).join(', ')}.`;
    initialsMore.hidden = more === 0;
    initialsForm.hidden = false;
    // What the player is typing for this same score stays.
    if (!asked) initialsInput.value = lastInitials;
    if (focus) initialsInput.focus();
  }

  /** Reads §16.9's pending list for this game; `latest` (just saved) is offered even when the list cannot be read. */
  async function offerWaitingScores(latest?: WaitingScore): Promise<void> {
    const answer = await api('GET', '/api/me/scores?pendingInitials=true');
    if (answer.status === 200 && Array.isArray(answer.body.scores)) {
      waiting = (answer.body.scores as (WaitingScore & { gameSlug: string })[])
        .filter((s) => s.gameSlug === slug)
        .map(({ scoreId, sessionId, score, achievedAt }) => ({ scoreId, sessionId, score: String(score), achievedAt }));
    } else if (latest && !waiting.some((w) => w.scoreId === latest.scoreId)) {
      waiting = [...waiting, latest];
    }
    waiting.sort(bestFirst);
    offerInitials(waiting.length > 0);
  }

  async function saveInitials(event: Event): Promise<void> {
    event.preventDefault();
    const initials = initialsInput.value.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(initials)) {
      say('Initials are three letters, A to Z.', 'error');
      initialsInput.focus();
      return;
    }
    const asked = pendingScore;
    if (!asked) return;
    const answer = await apiWithRetry('POST', `/api/play/sessions/${encodeURIComponent(asked.sessionId)}/score/initials`, {
      scoreId: asked.scoreId,
      initials,
    });
    if (answer.status === 200 || answer.body.error === 'SCORE_NOT_FOUND') {
      // Saved, or gone (an admin removed it): the next waiting score, if any, is asked for with the same initials.
      if (answer.status === 200) lastInitials = String(answer.body.initials);
      waiting = waiting.filter((w) => w.scoreId !== asked.scoreId);
      offerInitials(waiting.length > 0);
      const then = waiting.length > 0 ? ` Next: your score of ${wholeNumberText(waiting[0]!.score)}.` : ' See the leaderboard on the game page.';
      if (answer.status === 200) say(`Saved as ${answer.body.initials}: ${wholeNumberText(asked.score)} is on the leaderboard.${then}`, 'success');
      else say(`Your score of ${wholeNumberText(asked.score)} was removed from the leaderboard.${then}`, 'error');
      if (waiting.length === 0) frame?.focus();
    } else if (answer.status === 429) {
      say('Too many attempts. Wait a moment and try again.', 'error');
    } else {
      handleCommonError(answer);
      if (answer.status !== 401 && answer.status !== 410) say('The initials could not be saved.', 'error');
    }
  }

  function reply(message: Reply): void {
    // The game runs in an opaque origin, so only '*' reaches it; the reply goes to that one window.
    frame?.contentWindow?.postMessage(message, '*');
  }

  function fail(id: string, type: MessageType, answer: ApiAnswer): void {
    reply({ __svc: 1, id, ok: false, reason: reasonForHttpError(type, answer.status, answer.body.error) });
  }

  async function onInit(envelope: Envelope): Promise<void> {
    const s = session!;
    reply({
      __svc: 1,
      id: envelope.id,
      ok: true,
      data: { player: s.player, sessionId: s.sessionId, coinsPerCredit: s.coinsPerCredit, testMode: s.testMode },
    });
  }

  /** Only the player spends coins (CONTRACT §14.1): a game calling on its own has no fresh gesture; a browser that cannot tell counts as none. */
  function playerJustActed(): boolean {
    return (win.navigator as Partial<Navigator>).userActivation?.isActive === true;
  }

  async function onInsertCoin(envelope: Envelope): Promise<void> {
    // Checked before BUSY and in test mode too; the host says nothing, the game decides what to show.
    if (!playerJustActed()) {
      reply({ __svc: 1, id: envelope.id, ok: false, reason: 'USER_ACTION_REQUIRED' });
      return;
    }
    if (insertInFlight) {
      reply({ __svc: 1, id: envelope.id, ok: false, reason: 'BUSY' });
      return;
    }
    insertInFlight = true;
    try {
      const key = idempotencyKey();
      const answer = await apiWithRetry('POST', `/api/play/sessions/${encodeURIComponent(session!.sessionId)}/insert-coin`, { idempotencyKey: key });
      if (answer.status === 200) {
        showBalance(answer.body.balance);
        say(answer.body.testMode ? 'Preview credit: no coins charged.' : `Credit bought for ${coinsText(answer.body.coinsSpent)}. Good luck!`, 'success');
        reply({ __svc: 1, id: envelope.id, ok: true, data: { insertionId: answer.body.insertionId, testMode: answer.body.testMode } });
        return;
      }
      if (answer.status === 402) {
        if (typeof answer.body.balance === 'number') showBalance(answer.body.balance);
        say(`Not enough coins: a credit costs ${wholeNumberText(answer.body.coinsPerCredit ?? session!.coinsPerCredit)} and you have ${wholeNumberText(answer.body.balance ?? 0)}.`, 'error');
      } else if (answer.status === 429) {
        say('Slow down: coins can be inserted at most twice a second.', 'error');
      } else {
        handleCommonError(answer);
      }
      fail(envelope.id, 'insertCoin', answer);
    } finally {
      insertInFlight = false;
    }
  }

  async function onUnlock(envelope: Envelope): Promise<void> {
    const answer = await apiWithRetry('POST', `/api/v1/sessions/${encodeURIComponent(session!.sessionId)}/achievements`, { key: envelope.payload.key });
    if (answer.status !== 200) {
      handleCommonError(answer);
      fail(envelope.id, 'unlockAchievement', answer);
      return;
    }
    const { rewards, ...result } = answer.body;
    celebrate(rewards);
    reply({ __svc: 1, id: envelope.id, ok: true, data: result });
  }

  async function onSubmitScore(envelope: Envelope): Promise<void> {
    const answer = await apiWithRetry('POST', `/api/play/sessions/${encodeURIComponent(session!.sessionId)}/score`, {
      score: envelope.payload.score,
      idempotencyKey: idempotencyKey(),
    });
    if (answer.status !== 200) {
      if (answer.status === 429) say('Too many scores at once. Wait a moment.', 'error');
      else handleCommonError(answer);
      fail(envelope.id, 'submitScore', answer);
      return;
    }
    reply({ __svc: 1, id: envelope.id, ok: true, data: answer.body });
    if (answer.body.needsInitials && answer.body.scoreId) {
      const latest: WaitingScore = { scoreId: answer.body.scoreId, sessionId: session!.sessionId, score: String(envelope.payload.score), achievedAt: new Date().toISOString() };
      await offerWaitingScores(latest);
      const better = pendingScore !== undefined && pendingScore.scoreId !== latest.scoreId;
      const first = better ? `: your best, ${wholeNumberText(pendingScore!.score)}, comes first` : '';
      say(`New high score: rank ${wholeNumberText(answer.body.rank)}! Enter your initials for the leaderboard${first}.`, 'success');
    } else if (answer.body.saved) {
      say(answer.body.qualifies ? `High score saved at rank ${answer.body.rank} as ${answer.body.initials}.` : 'Score saved.', 'success');
    }
  }

  function onMessage(event: MessageEvent): void {
    // Only the game's own iframe may talk to the bridge; other windows are ignored.
    if (!frame || !session || event.source !== frame.contentWindow) return;
    const parsed = parseRequest(event.data);
    if (parsed.kind === 'ignore') return;
    if (parsed.kind === 'invalid') {
      reply({ __svc: 1, id: parsed.id, ok: false, reason: 'INVALID_REQUEST' });
      return;
    }
    const handlers: Record<MessageType, (e: Envelope) => Promise<void>> = {
      init: onInit,
      insertCoin: onInsertCoin,
      unlockAchievement: onUnlock,
      submitScore: onSubmitScore,
    };
    const { envelope } = parsed;
    handlers[envelope.type](envelope).catch(() => reply({ __svc: 1, id: envelope.id, ok: false, reason: 'ERROR' }));
  }

  function stopHeartbeat(): void {
    if (heartbeatTimer !== undefined) win.clearTimeout(heartbeatTimer);
    heartbeatTimer = undefined;
  }

  /** Beats well inside the idle timeout, whatever it is configured to (read from expiresAt). */
  function beatBefore(expiresAt: string): number {
    return Math.min(MAX_HEARTBEAT_MS, Math.max(MIN_HEARTBEAT_MS, (Date.parse(expiresAt) - Date.now()) / 3));
  }

  function scheduleHeartbeat(delay: number): void {
    stopHeartbeat();
    heartbeatTimer = win.setTimeout(async () => {
      if (!session || ended) return;
      const answer = await api('POST', `/api/play/sessions/${encodeURIComponent(session.sessionId)}/heartbeat`);
      if (answer.status === 200) scheduleHeartbeat(beatBefore(answer.body.expiresAt));
      else if (answer.status === 0 || answer.status >= 500) scheduleHeartbeat(RETRY_HEARTBEAT_MS);
      else handleCommonError(answer);
    }, delay);
  }

  function endSession(): void {
    if (!session || ended) return;
    ended = true;
    stopHeartbeat();
    // keepalive lets the request outlive the page, with the cookie and a same-origin Origin header.
    void api('POST', `/api/play/sessions/${encodeURIComponent(session.sessionId)}/end`, undefined, true);
  }

  async function start(): Promise<void> {
    say('Starting your play session…');
    const start = preview ? { gameSlug: slug, preview: true, ...(versionId ? { versionId } : {}) } : { gameSlug: slug };
    const answer = await apiWithRetry('POST', '/api/play/sessions', start);
    if (answer.status !== 201) {
      const code = answer.body.error;
      if (answer.status === 401) return signedOut();
      // No game to show: no empty frame-sized space either, and the balance from the wallet.
      stage.hidden = true;
      void showWalletBalance();
      if (code === 'EMAIL_NOT_VERIFIED') return askToVerify();
      if (code === 'ACCOUNT_NOT_LINKED') return say('Your account has no player profile yet, so it cannot play.', 'error');
      if (code === 'GAME_UNAVAILABLE') return say('This game is not available right now.', 'error');
      if (code === 'FORBIDDEN') return say('Only the game’s owner can preview it.', 'error');
      return say('The play session could not be started. Reload the page to try again.', 'error');
    }
    session = answer.body as PlaySession;
    showBalance(session.balance);
    modeEl.hidden = !session.testMode;
    scheduleHeartbeat(beatBefore(session.expiresAt));

    const url = new URL(entryUrl, win.location.href);
    url.hash = `${HOST_ORIGIN_PARAM}=${encodeURIComponent(win.location.origin)}`;
    frame = doc.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.setAttribute('allow', '');
    frame.dataset.testid = 'game-frame';
    frame.title = root.dataset.title ?? 'Game';
    frame.src = url.toString();
    stage.replaceChildren(frame);
    say(`Signed in as ${session.player.displayName}. A credit costs ${coinsText(session.coinsPerCredit)}.`);
    // Scores still without initials, from earlier visits or a trusted score from the game's backend (CONTRACT §16.9).
    await offerWaitingScores();
    if (pendingScore) say(`Your score of ${wholeNumberText(pendingScore.score)} made the leaderboard! Enter your initials.`, 'success');
  }

  win.addEventListener('message', onMessage);
  win.addEventListener('pagehide', endSession);
  // Back from the back/forward cache the old play session has ended: start a fresh one.
  win.addEventListener('pageshow', (event) => {
    if (event.persisted && ended) win.location.reload();
  });
  // Escape on the host page ends a celebration early (keys in the game's frame stay the game's).
  doc.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !celebration.hidden) closeCelebration();
  });
  initialsForm.addEventListener('submit', (event) => void saveInitials(event));
  initialsInput.addEventListener('input', () => {
    initialsInput.value = initialsInput.value.toUpperCase().replace(/[^A-Z]/g, '').slice(0, 3);
  });
  restart.addEventListener('click', () => win.location.reload());
  void start();
}
