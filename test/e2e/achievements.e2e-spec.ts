import type { TestApp } from '../support/app';
import { adminCookie, createAchievement, createDeveloper, createGame, createWorldApp, Developer, publishGame, signUpPlayer, signUpVerifiedPlayer } from '../support/factories';
import { startSession } from '../support/play';

describe('achievement unlocks: POST /api/v1/sessions/{id}/achievements (spec §3.3, §4.9)', () => {
  let t: TestApp;
  let dev: Developer;

  beforeAll(async () => {
    t = await createWorldApp();
    dev = await createDeveloper(t);
  });
  afterAll(async () => t.close());

  function unlock(player: { cookie: string }, sessionId: string, key: string) {
    return t.http().post(`/api/v1/sessions/${sessionId}/achievements`).set('Cookie', player.cookie).send({ key });
  }

  async function me(player: { cookie: string }): Promise<{ xp: number; level: number }> {
    const res = await t.http().get('/api/me').set('Cookie', player.cookie).expect(200);
    return { xp: res.body.xp, level: res.body.level };
  }

  async function unlockRows(playerId: string) {
    return (await t.db.query('SELECT achievement_id, play_session_id, unlocked_at FROM achievement_unlocks WHERE player_id = $1', [playerId])).rows;
  }

  async function gameWith(keys: { key: string; secret?: boolean; name?: string }[]) {
    const game = await publishGame(t, dev);
    for (const k of keys) {
      await createAchievement(t, dev, game.gameId, { key: k.key, name: k.name ?? `Name ${k.key}`, description: `About ${k.key}`, iconKey: 'star', secret: k.secret });
    }
    return game;
  }

  it('stores a first unlock, adds 25 XP and returns the achievement reward; a repeat returns the original without rewards', async () => {
    const game = await gameWith([{ key: 'first-win' }]);
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, game.slug);

    const first = await unlock(player, sessionId, 'first-win').expect(200);
    expect(first.body).toEqual({
      achievement: { key: 'first-win', name: 'Name first-win', description: 'About first-win', iconKey: 'star', secret: false },
      unlocked: true,
      newlyUnlocked: true,
      unlockedAt: expect.any(String),
      testMode: false,
      rewards: [{ kind: 'achievement', title: 'Name first-win', subtitle: expect.any(String), icon: 'star' }],
    });
    expect(await me(player)).toEqual({ xp: 25, level: 1 });
    const rows = await unlockRows(player.playerId);
    expect(rows).toHaveLength(1);
    expect(rows[0].play_session_id).toBe(sessionId);
    expect(rows[0].unlocked_at.toISOString()).toBe(first.body.unlockedAt);

    // Again, in the same session and in another one.
    const again = await unlock(player, sessionId, 'first-win').expect(200);
    expect(again.body).toMatchObject({ unlocked: true, newlyUnlocked: false, unlockedAt: first.body.unlockedAt, testMode: false });
    expect(again.body.rewards ?? []).toEqual([]);
    const other = await startSession(t, player, game.slug);
    expect((await unlock(player, other.sessionId, 'first-win').expect(200)).body).toMatchObject({ newlyUnlocked: false, unlockedAt: first.body.unlockedAt });
    expect(await me(player)).toEqual({ xp: 25, level: 1 });
    expect(await unlockRows(player.playerId)).toHaveLength(1);
  });

  it('moves the play session lastSeenAt to now, in test mode too', async () => {
    const game = await gameWith([{ key: 'alive' }]);
    const player = await signUpVerifiedPlayer(t);
    const paid = await startSession(t, player, game.slug);
    const preview = await startSession(t, dev, game.slug, { preview: true });
    // Ten minutes of quiet, short of the idle timeout: only the clock can be moved for this.
    await t.db.query(`UPDATE play_sessions SET last_seen_at = now() - interval '10 minutes' WHERE id = ANY($1)`, [[paid.sessionId, preview.sessionId]]);
    await unlock(player, paid.sessionId, 'alive').expect(200);
    await unlock(dev, preview.sessionId, 'alive').expect(200);
    const { rows } = await t.db.query(`SELECT bool_and(last_seen_at > now() - interval '1 minute') AS fresh FROM play_sessions WHERE id = ANY($1)`, [
      [paid.sessionId, preview.sessionId],
    ]);
    expect(rows[0].fresh).toBe(true);
  });

  it('adds a level-up reward on the fourth achievement (100 XP: level 2)', async () => {
    const game = await gameWith([{ key: 'a1' }, { key: 'a2' }, { key: 'a3' }, { key: 'a4' }]);
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, game.slug);
    for (const key of ['a1', 'a2', 'a3']) {
      const res = await unlock(player, sessionId, key).expect(200);
      expect(res.body.rewards.map((r: { kind: string }) => r.kind)).toEqual(['achievement']);
    }
    expect(await me(player)).toEqual({ xp: 75, level: 1 });
    const fourth = await unlock(player, sessionId, 'a4').expect(200);
    expect(fourth.body.rewards).toEqual([
      { kind: 'achievement', title: 'Name a4', subtitle: expect.any(String), icon: 'star' },
      { kind: 'level-up', title: expect.stringContaining('2'), subtitle: expect.any(String), icon: expect.any(String) },
    ]);
    expect(await me(player)).toEqual({ xp: 100, level: 2 });
  });

  it('stores one unlock and adds 25 XP once for 10 concurrent unlocks', async () => {
    const game = await gameWith([{ key: 'rush' }]);
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, game.slug);
    const answers = await Promise.all(Array.from({ length: 10 }, () => unlock(player, sessionId, 'rush')));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((r) => r.body.newlyUnlocked === true)).toHaveLength(1);
    expect(new Set(answers.map((r) => r.body.unlockedAt)).size).toBe(1);
    expect(await unlockRows(player.playerId)).toHaveLength(1);
    expect(await me(player)).toEqual({ xp: 25, level: 1 });
  });

  it('answers unmasked for a secret achievement, and the game page reveals it only to players who have it', async () => {
    const game = await gameWith([{ key: 'hidden', secret: true, name: 'Hidden Gem' }, { key: 'plain' }]);
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, game.slug);

    const before = await t.http().get(`/api/games/${game.slug}`).set('Cookie', player.cookie).expect(200);
    expect(before.body.achievements.find((a: { key: string }) => a.key === 'hidden')).toMatchObject({ name: '???', description: '???', secret: true, unlocked: false, unlockedAt: null });

    const res = await unlock(player, sessionId, 'hidden').expect(200);
    expect(res.body.achievement).toEqual({ key: 'hidden', name: 'Hidden Gem', description: 'About hidden', iconKey: 'star', secret: true });

    const after = await t.http().get(`/api/games/${game.slug}`).set('Cookie', player.cookie).expect(200);
    expect(after.body.achievements.find((a: { key: string }) => a.key === 'hidden')).toMatchObject({
      name: 'Hidden Gem',
      unlocked: true,
      unlockedAt: res.body.unlockedAt,
    });
    expect(after.body.achievements.find((a: { key: string }) => a.key === 'plain')).toMatchObject({ unlocked: false, unlockedAt: null });
    const stranger = await signUpVerifiedPlayer(t);
    const theirs = await t.http().get(`/api/games/${game.slug}`).set('Cookie', stranger.cookie).expect(200);
    expect(theirs.body.achievements.find((a: { key: string }) => a.key === 'hidden')).toMatchObject({ name: '???', unlocked: false });
    const anonymous = await t.http().get(`/api/games/${game.slug}`).expect(200);
    expect(anonymous.body.achievements.find((a: { key: string }) => a.key === 'hidden')).toMatchObject({ name: '???', unlocked: false, unlockedAt: null });
  });

  it('answers 404 ACHIEVEMENT_NOT_FOUND for unknown and retired keys, also when the player had unlocked it', async () => {
    const game = await gameWith([{ key: 'old' }, { key: 'older' }]);
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, game.slug);
    expect((await unlock(player, sessionId, 'nope').expect(404)).body.error).toBe('ACHIEVEMENT_NOT_FOUND');
    await unlock(player, sessionId, 'old').expect(200);
    for (const key of ['old', 'older']) {
      await t.http().post(`/api/portal/games/${game.gameId}/achievements/${key}/retire`).set('Cookie', dev.cookie).expect(200);
      expect((await unlock(player, sessionId, key).expect(404)).body.error).toBe('ACHIEVEMENT_NOT_FOUND');
    }
    expect(await me(player)).toEqual({ xp: 25, level: 1 });
  });

  it('does not find another game\'s achievement', async () => {
    const mine = await gameWith([]);
    const theirs = await gameWith([{ key: 'elsewhere' }]);
    expect(theirs.slug).not.toBe(mine.slug);
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, mine.slug);
    expect((await unlock(player, sessionId, 'elsewhere').expect(404)).body.error).toBe('ACHIEVEMENT_NOT_FOUND');
  });

  it('answers 404 GAME_UNAVAILABLE when the game is unpublished or suspended mid-session', async () => {
    const player = await signUpVerifiedPlayer(t);
    const unpublished = await gameWith([{ key: 'u' }]);
    const s1 = await startSession(t, player, unpublished.slug);
    await t.http().post(`/api/portal/games/${unpublished.gameId}/unpublish`).set('Cookie', dev.cookie).expect(200);
    expect((await unlock(player, s1.sessionId, 'u').expect(404)).body.error).toBe('GAME_UNAVAILABLE');
    expect((await unlock(player, s1.sessionId, 'no-such-key').expect(404)).body.error).toBe('GAME_UNAVAILABLE');

    const suspended = await gameWith([{ key: 's' }]);
    const s2 = await startSession(t, player, suspended.slug);
    await t.http().post(`/api/admin/games/${suspended.gameId}/suspend`).set('Cookie', await adminCookie(t)).expect(200);
    expect((await unlock(player, s2.sessionId, 's').expect(404)).body.error).toBe('GAME_UNAVAILABLE');
    expect(await unlockRows(player.playerId)).toHaveLength(0);
  });

  it('answers 404 SESSION_NOT_FOUND and 410 SESSION_EXPIRED before looking at the key', async () => {
    const game = await gameWith([{ key: 'k' }]);
    const player = await signUpVerifiedPlayer(t);
    expect((await unlock(player, '00000000-0000-4000-8000-000000000000', 'k').expect(404)).body.error).toBe('SESSION_NOT_FOUND');
    expect((await unlock(player, 'malformed', 'k').expect(404)).body.error).toBe('SESSION_NOT_FOUND');
    const other = await signUpVerifiedPlayer(t);
    const theirs = await startSession(t, other, game.slug);
    expect((await unlock(player, theirs.sessionId, 'k').expect(404)).body.error).toBe('SESSION_NOT_FOUND');

    const { sessionId } = await startSession(t, player, game.slug);
    await t.http().post(`/api/play/sessions/${sessionId}/end`).set('Cookie', player.cookie).expect(200);
    expect((await unlock(player, sessionId, 'k').expect(410)).body.error).toBe('SESSION_EXPIRED');
    expect((await unlock(player, sessionId, 'unknown-key').expect(410)).body.error).toBe('SESSION_EXPIRED');
    // Idle for 31 minutes (only the clock can be moved for this).
    const idle = await startSession(t, player, game.slug);
    await t.db.query(`UPDATE play_sessions SET last_seen_at = now() - interval '31 minutes' WHERE id = $1`, [idle.sessionId]);
    expect((await unlock(player, idle.sessionId, 'k').expect(410)).body.error).toBe('SESSION_EXPIRED');
    expect(await unlockRows(player.playerId)).toHaveLength(0);
  });

  it('stores nothing and adds no XP in a test-mode session, but still celebrates', async () => {
    const game = await gameWith([{ key: 'preview' }]);
    const before = await me(dev);
    const { sessionId, testMode } = await startSession(t, dev, game.slug, { preview: true });
    expect(testMode).toBe(true);
    for (let i = 0; i < 2; i++) {
      const res = await unlock(dev, sessionId, 'preview').expect(200);
      expect(res.body).toEqual({
        achievement: expect.objectContaining({ key: 'preview' }),
        unlocked: true,
        newlyUnlocked: true,
        unlockedAt: null,
        testMode: true,
        rewards: [expect.objectContaining({ kind: 'achievement', title: 'Name preview' })],
      });
    }
    expect(await unlockRows(dev.playerId!)).toHaveLength(0);
    expect(await me(dev)).toEqual(before);
    // Nothing stored, so the key stays changeable.
    await t.http().patch(`/api/portal/games/${game.gameId}/achievements/preview`).set('Cookie', dev.cookie).send({ key: 'preview-2' }).expect(200);
  });

  it('works in a test-mode session on an unpublished game', async () => {
    const draft = await createGame(t, dev);
    await createAchievement(t, dev, draft.gameId, { key: 'draft-ach' });
    const { sessionId, testMode } = await startSession(t, dev, draft.slug);
    expect(testMode).toBe(true);
    expect((await unlock(dev, sessionId, 'draft-ach').expect(200)).body).toMatchObject({ testMode: true, unlockedAt: null });
  });

  it('locks the key in the portal after the first unlock (409 ACHIEVEMENT_KEY_LOCKED)', async () => {
    const game = await gameWith([{ key: 'lockme' }]);
    await t.http().patch(`/api/portal/games/${game.gameId}/achievements/lockme`).set('Cookie', dev.cookie).send({ name: 'Renamed' }).expect(200);
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, game.slug);
    await unlock(player, sessionId, 'lockme').expect(200);
    const res = await t.http().patch(`/api/portal/games/${game.gameId}/achievements/lockme`).set('Cookie', dev.cookie).send({ key: 'moved' }).expect(409);
    expect(res.body.error).toBe('ACHIEVEMENT_KEY_LOCKED');
    // Other fields stay editable; a repeat unlock shows the current definition with the original time.
    await t.http().patch(`/api/portal/games/${game.gameId}/achievements/lockme`).set('Cookie', dev.cookie).send({ name: 'New Name' }).expect(200);
    expect((await unlock(player, sessionId, 'lockme').expect(200)).body).toMatchObject({ achievement: { name: 'New Name' }, newlyUnlocked: false });
  });

  it.each([
    ['an upper-case key', { key: 'Bad' }],
    ['a key starting with -', { key: '-bad' }],
    ['a 49-character key', { key: 'a'.repeat(49) }],
    ['an empty key', { key: '' }],
    ['no key', {}],
    ['an extra property', { key: 'ok', extra: 1 }],
  ])('refuses %s with 400 INVALID_REQUEST', async (_name, body) => {
    const game = await gameWith([]);
    const player = await signUpVerifiedPlayer(t);
    const { sessionId } = await startSession(t, player, game.slug);
    const res = await t.http().post(`/api/v1/sessions/${sessionId}/achievements`).set('Cookie', player.cookie).send(body).expect(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
  });

  it('refuses a session id over 64 characters with 400', async () => {
    const player = await signUpVerifiedPlayer(t);
    expect((await unlock(player, 'a'.repeat(65), 'k').expect(400)).body.error).toBe('INVALID_REQUEST');
  });

  it('needs a signed-in, verified, linked player (401, 403, 403) and the same origin', async () => {
    const path = '/api/v1/sessions/00000000-0000-4000-8000-000000000000/achievements';
    expect((await t.http().post(path).send({ key: 'k' }).expect(401)).body.error).toBe('UNAUTHENTICATED');
    const unverified = await signUpPlayer(t, { verified: false });
    expect((await t.http().post(path).set('Cookie', unverified.cookie).send({ key: 'k' }).expect(403)).body.error).toBe('EMAIL_NOT_VERIFIED');
    const unlinked = await signUpPlayer(t, { verified: true, linked: false });
    expect((await t.http().post(path).set('Cookie', unlinked.cookie).send({ key: 'k' }).expect(403)).body.error).toBe('ACCOUNT_NOT_LINKED');
    const player = await signUpVerifiedPlayer(t);
    const cross = await t.http().post(path).set('Cookie', player.cookie).set('Origin', 'https://evil.example').send({ key: 'k' }).expect(403);
    expect(cross.body.error).toBe('FORBIDDEN');
  });
});
