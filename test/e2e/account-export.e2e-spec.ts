import type { TestApp } from '../support/app';
import { adminCookie, createAchievement, createApiKey, createDeveloper, createWorldApp, logIn, publishGame, signUpPlayer, signUpVerifiedPlayer } from '../support/factories';
import { fundPlayer, idempotencyKey, paidSession, postScore } from '../support/play';

/** CONTRACT §20 `GET /api/me/export`: everything kept about the account, no secret; 2 exports per hour here, and earnings payable at once (§22). */
describe('downloading my data', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createWorldApp({ env: { RATE_LIMIT_EXPORT_PER_ACCOUNT: '2/3600', PAYOUT_HOLD_DAYS: '0', PAYOUT_MINIMUM_USD: '0.5' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const exportOf = (cookie: string) => t.http().get('/api/me/export').set('Cookie', cookie);

  /** Every hash and secret the database holds for the account, as the text they could appear as in JSON. */
  async function storedSecrets(accountId: string): Promise<string[]> {
    const rows = await t.db.query<{ secret: string }>(
      `SELECT password_hash AS secret FROM accounts WHERE id = $1
       UNION ALL SELECT encode(token_hash, 'hex') FROM login_sessions WHERE account_id = $1
       UNION ALL SELECT encode(token_hash, 'base64') FROM login_sessions WHERE account_id = $1
       UNION ALL SELECT encode(token_hash, 'hex') FROM email_verification_tokens WHERE account_id = $1
       UNION ALL SELECT encode(token_hash, 'base64') FROM email_verification_tokens WHERE account_id = $1
       UNION ALL SELECT encode(token_hash, 'hex') FROM password_reset_tokens WHERE account_id = $1
       UNION ALL SELECT encode(token_hash, 'base64') FROM password_reset_tokens WHERE account_id = $1
       UNION ALL SELECT encode(token_hash, 'hex') FROM email_change_tokens WHERE account_id = $1
       UNION ALL SELECT encode(token_hash, 'base64') FROM email_change_tokens WHERE account_id = $1
       UNION ALL SELECT encode(code_hash, 'hex') FROM two_factor_recovery_codes WHERE account_id = $1
       UNION ALL SELECT encode(challenge_hash, 'hex') FROM login_challenges WHERE account_id = $1
       UNION ALL SELECT encode(k.key_hash, 'hex') FROM api_keys k JOIN developers d ON d.id = k.developer_id WHERE d.account_id = $1
       UNION ALL SELECT encode(k.key_hash, 'base64') FROM api_keys k JOIN developers d ON d.id = k.developer_id WHERE d.account_id = $1
       UNION ALL SELECT secret FROM two_factor_settings WHERE account_id = $1 AND secret IS NOT NULL
       UNION ALL SELECT pending_secret FROM two_factor_settings WHERE account_id = $1 AND pending_secret IS NOT NULL
       UNION ALL SELECT w.secret FROM webhook_endpoints w JOIN developers d ON d.id = w.developer_id WHERE d.account_id = $1
       UNION ALL SELECT w.previous_secret FROM webhook_endpoints w JOIN developers d ON d.id = w.developer_id WHERE d.account_id = $1 AND w.previous_secret IS NOT NULL`,
      [accountId],
    );
    return rows.rows.map((row) => row.secret);
  }

  it('a player: 200 JSON as a dated attachment with every part, and no hash or secret stored for the account anywhere in it', async () => {
    const ada = await signUpVerifiedPlayer(t, { displayName: 'Ada Export' });
    const phone = await logIn(t, ada.email, ada.password);
    await t.http().post('/auth/password-reset').send({ email: ada.email }).expect(202);
    await t.http().post('/api/me/email').set('Cookie', ada.cookie).send({ email: `next-${ada.email}`, currentPassword: ada.password }).expect(202);
    const totp = await t.http().post('/api/me/2fa/setup').set('Cookie', ada.cookie).expect(200);
    const dev = await createDeveloper(t);
    const game = await publishGame(t, dev, { coinsPerCredit: 2 });
    await fundPlayer(t, ada, 50);
    const { sessionId } = await paidSession(t, ada, game.slug);
    const score = await postScore(t, ada, sessionId, 4321);
    expect(score.status).toBe(200);

    const res = await exportOf(ada.cookie).expect(200);

    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const day = new Date(res.body.exportedAt).toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="arcade-export-${day}.json"`);
    expect(Object.keys(res.body).sort()).toEqual(
      ['account', 'achievements', 'developer', 'exportedAt', 'loginSessions', 'playSessions', 'player', 'purchases', 'scores', 'wallet'].sort(),
    );
    expect(res.body.account).toMatchObject({ id: ada.accountId, email: ada.email, displayName: 'Ada Export', emailVerified: true, isAdmin: false });
    expect(res.body.player).toMatchObject({ id: ada.playerId });
    expect(res.body.wallet.balance).toBe(48);
    expect(res.body.wallet.entries.map((e: { kind: string; delta: number }) => [e.kind, e.delta])).toEqual([
      ['credit', 50],
      ['debit', -2],
    ]);
    expect(res.body.playSessions).toEqual([expect.objectContaining({ id: sessionId, gameId: game.gameId })]);
    expect(res.body.scores).toEqual([expect.objectContaining({ id: score.body.scoreId, score: '4321', playSessionId: sessionId })]);
    expect(res.body.achievements).toEqual([]);
    expect(res.body.purchases).toEqual([]);
    expect(res.body.loginSessions).toHaveLength(2);
    expect(res.body.developer).toBeNull();

    const text = res.text;
    expect(totp.body.secret).toBeTruthy();
    const secrets = [...(await storedSecrets(ada.accountId)), totp.body.secret as string, ada.cookie.split('=')[1]!, phone.split('=')[1]!];
    // Password, 2 sessions, verification, reset and e-mail-change tokens (hex and base64 each), the TOTP secret, the cookies.
    expect(secrets.length).toBeGreaterThanOrEqual(13);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/password_?hash|token_?hash|key_?hash|"secret"|argon2/i);
  });

  it('a developer: games, versions, achievements, keys without their secret or hash, earnings, the payout method, payouts and webhook endpoints without their secrets', async () => {
    const dev = await createDeveloper(t, { displayName: 'Export Studio' });
    const game = await publishGame(t, dev, { coinsPerCredit: 3 });
    await createAchievement(t, dev, game.gameId, { key: 'first' });
    const live = await createApiKey(t, dev, 'live', 'server');
    const test = await createApiKey(t, dev, 'test', 'staging');
    const fan = await signUpVerifiedPlayer(t);
    await fundPlayer(t, fan, 10);
    const { insertionId } = await paidSession(t, fan, game.slug);
    await t.http().put('/api/portal/payout-method').set('Cookie', dev.cookie).send({ kind: 'sandbox' }).expect(200);
    // 3 coins earned $0.525: the run pays the whole cents, $0.52.
    await t.http().post('/api/admin/payout-runs').set('Cookie', await adminCookie(t)).send({ idempotencyKey: idempotencyKey('export-run') }).expect(201);
    const hook = (await t.http().post('/api/portal/webhooks').set('Cookie', dev.cookie).send({ url: 'https://hooks.example.com/export', events: ['insertion.voided'] }).expect(201)).body;
    const rotated = (await t.http().post(`/api/portal/webhooks/${hook.webhookId}/rotate-secret`).set('Cookie', dev.cookie).expect(200)).body;

    const res = await exportOf(dev.cookie).expect(200);

    const developer = res.body.developer;
    expect(developer).toMatchObject({ id: dev.developerId, displayName: 'Export Studio' });
    expect(developer.games).toEqual([expect.objectContaining({ id: game.gameId, slug: game.slug, status: 'published' })]);
    expect(developer.versions).toEqual([expect.objectContaining({ id: game.versionId, gameId: game.gameId, status: 'approved' })]);
    expect(developer.achievements).toEqual([expect.objectContaining({ gameId: game.gameId, key: 'first' })]);
    expect(developer.keys.map((k: { id: string }) => k.id).sort()).toEqual([live.id, test.id].sort());
    for (const key of developer.keys) expect(Object.keys(key).sort()).toEqual(['createdAt', 'id', 'kind', 'lastUsedAt', 'name', 'prefix', 'revokedAt']);
    expect(developer.earnings).toEqual([expect.objectContaining({ insertionId, gameId: game.gameId, coins: 3, voided: false })]);
    expect(developer.payoutMethod).toEqual({ kind: 'sandbox', accountId: null, updatedAt: expect.any(String) });
    expect(developer.payouts).toEqual([
      {
        id: expect.any(String), runId: expect.any(String), amountMills: 520, status: 'pending', methodKind: 'sandbox', methodAccountId: null,
        reference: null, failureReason: null, createdAt: expect.any(String), paidAt: null, failedAt: null,
      },
    ]);
    expect(developer.webhooks).toEqual([
      { id: hook.webhookId, url: 'https://hooks.example.com/export', events: ['insertion.voided'], description: null, enabled: true, createdAt: hook.createdAt, lastSuccessAt: null, deletedAt: null },
    ]);
    for (const secret of [live.key, test.key, hook.secret, rotated.secret, ...(await storedSecrets(dev.accountId))]) expect(res.text).not.toContain(secret);
  });

  it('an account without a player or developer profile: player, wallet and developer null, lists empty', async () => {
    const bob = await signUpPlayer(t, { linked: false });
    const res = await exportOf(bob.cookie).expect(200);
    expect(res.body).toMatchObject({ player: null, wallet: null, developer: null, scores: [], achievements: [], playSessions: [], purchases: [] });
    expect(res.body.account).toMatchObject({ id: bob.accountId, email: bob.email, emailVerified: false });
  });

  it('signed out: 401; beyond RATE_LIMIT_EXPORT_PER_ACCOUNT: 429 RATE_LIMITED with Retry-After, per account', async () => {
    expect((await t.http().get('/api/me/export').expect(401)).body.error).toBe('UNAUTHENTICATED');
    const cy = await signUpVerifiedPlayer(t);
    await exportOf(cy.cookie).expect(200);
    await exportOf(cy.cookie).expect(200);
    const limited = await exportOf(cy.cookie).expect(429);
    expect(limited.body.error).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another session of the same account counts against the same limit; another account does not.
    await exportOf(await logIn(t, cy.email, cy.password)).expect(429);
    await exportOf((await signUpVerifiedPlayer(t)).cookie).expect(200);
    t.clock.advance(3600_000 + 1000);
    await exportOf(cy.cookie).expect(200);
  });
});
