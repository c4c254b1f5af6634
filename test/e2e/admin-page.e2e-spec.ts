/**
 * `/admin` over HTTP (CONTRACT §17, §17.1): what the page renders for each section from its query
 * string. Access rules (sign-in redirect, 404 page for non-admins) are in pages.e2e-spec.ts; the
 * controls are driven in test/browser/admin.browser-spec.ts.
 */
import type { TestApp } from '../support/app';
import { signedInAdmin, SignedInAdmin } from '../support/admin';
import { createDeveloper, createGame, createWorldApp, Developer, publishGame, signUpPlayer, unique } from '../support/factories';
import { fundPlayer, playAndScore } from '../support/play';

describe('/admin', () => {
  let t: TestApp;
  let admin: SignedInAdmin;
  let dev: Developer;

  const page = async (query: Record<string, string> = {}) => {
    const res = await admin.get('/admin', query);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    return res.text;
  };

  beforeAll(async () => {
    t = await createWorldApp();
    admin = await signedInAdmin(t);
    dev = await createDeveloper(t, { displayName: 'Page Studio' });
  });
  afterAll(async () => t.close());

  it('renders the five sections with their links inside <main>, the pending versions and the audit log', async () => {
    const game = await createGame(t, dev, { title: 'Awaiting Review' });
    const html = await page();
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    for (const [id, name] of [['review', 'Review'], ['games', 'Games'], ['users', 'Users'], ['scores', 'Scores'], ['audit-log', 'Audit log']]) {
      expect(main).toContain(`<a href="#${id}">${name}</a>`);
      expect(main).toContain(`<h2 id="${id}-heading">${name}</h2>`);
    }
    expect(main).toContain(`data-version-id="${game.versionId}"`);
    expect(main).toMatch(/<caption( class="visually-hidden")?>Audit log<\/caption>/);
    expect(main).toContain('version.add');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it('shows users found by `user`, games found by `gameQuery`, and a chosen game\'s scores by `game`', async () => {
    const tag = unique('pg').replace(/-/g, '');
    const player = await signUpPlayer(t, { email: `${tag}@example.test`, verified: false, displayName: 'Page Player' });
    const game = await publishGame(t, dev, { title: `Findable ${tag}` });
    const scorer = await signUpPlayer(t, { verified: true });
    await fundPlayer(t, scorer, 2);
    const scored = await playAndScore(t, scorer, game.slug, 4242);

    const users = await page({ user: tag });
    expect(users).toContain(`data-user-id="${player.accountId}"`);
    expect(users).toContain('Verify e-mail');
    expect(await page()).not.toContain(`data-user-id="${player.accountId}"`);

    const games = await page({ gameQuery: `FINDABLE ${tag}` });
    const region = games.slice(games.indexOf('id="games-region"'), games.indexOf('id="users"'));
    expect(region.match(/data-game-id=/g)).toHaveLength(1);
    expect(region).toContain(`data-game-id="${game.gameId}"`);

    const scores = await page({ game: game.gameId });
    expect(scores).toContain(`data-score-id="${scored.scoreId}"`);
    expect(scores).toContain(`<option value="${game.gameId}" selected>Findable ${tag}</option>`);
    expect(await page({ game: '00000000-0000-4000-8000-000000000000' })).toContain('There is no such game.');
  });

  it('shows the first page for an unreadable cursor, and ignores parameters it does not know', async () => {
    for (const query of [{ review: 'nope' }, { games: 'nope' }, { audit: 'nope' }, { gameStatus: 'deleted' }, { other: 'x' }] as Record<string, string>[]) {
      const html = await page(query);
      expect(html).toMatch(/<caption( class="visually-hidden")?>Audit log<\/caption>/);
    }
  });
});
