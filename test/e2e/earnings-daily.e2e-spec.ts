/**
 * GET /api/portal/earnings/daily (CONTRACT §17): exactly N UTC calendar days, oldest first, the
 * last one today, zero-filled; paid insertions only; one game or all; another developer's or an
 * unknown game 404 after `days` is validated.
 */
import { Client } from 'pg';
import { TestApp } from '../support/app';
import { behindTriggers, createTestDatabase } from '../support/database';
import { createDeveloper, createWorldApp, Developer, publishGame, signUpVerifiedPlayer, SignedUpUser } from '../support/factories';
import { fundPlayer, insertCoin, paidSession, startSession } from '../support/play';

interface Day {
  date: string;
  insertions: number;
  coins: number;
  grossUsd: string;
  earnedUsd: string;
}

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of a UTC day `offset` days from `today`. */
function dayOf(today: string, offset: number): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
}

describe('GET /api/portal/earnings/daily', () => {
  let t: TestApp;
  let dev: Developer;
  let otherDev: Developer;
  let player: SignedUpUser;
  let foreignGame: { gameId: string; slug: string };

  beforeAll(async () => {
    // Days are UTC days whatever the database's own time zone: run on one 14 hours ahead of UTC.
    const databaseUrl = await createTestDatabase();
    const admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${new URL(databaseUrl).pathname.slice(1)}" SET timezone TO 'Pacific/Kiritimati'`);
    await admin.end();
    t = await createWorldApp({ databaseUrl });
    expect((await t.db.query('SHOW timezone')).rows[0].TimeZone).toBe('Pacific/Kiritimati');
    dev = await createDeveloper(t);
    otherDev = await createDeveloper(t);
    foreignGame = await publishGame(t, otherDev, { coinsPerCredit: 3 });
    player = await signUpVerifiedPlayer(t);
    await fundPlayer(t, player, 500);
  });

  afterAll(async () => {
    await t.close();
  });

  /** Today as the database sees it, in UTC: the service's "today". */
  async function todayUtc(): Promise<string> {
    return (await t.db.query<{ today: string }>("SELECT to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS today")).rows[0]!.today;
  }

  async function daily(query: string, cookie = dev.cookie) {
    return t.http().get(`/api/portal/earnings/daily${query}`).set('Cookie', cookie);
  }

  async function days(query: string): Promise<Day[]> {
    const res = await daily(query);
    expect(res.status).toBe(200);
    expect(res.body.currency).toBe('USD');
    return res.body.days;
  }

  /**
   * Moves the earning of an insertion to a chosen instant. The API always stamps "now", so the
   * day boundaries cannot be reached through it; only the earning's timestamp moves.
   */
  async function earnedAt(insertionId: string, at: string): Promise<void> {
    expect(await behindTriggers(t.db, 'UPDATE developer_earnings SET created_at = $2 WHERE insertion_id = $1', [insertionId, at])).toBe(1);
  }

  it('answers exactly 30 consecutive UTC days by default, oldest first, the last one today, zero-filled', async () => {
    const fresh = await createDeveloper(t);
    await publishGame(t, fresh);
    const res = await daily('', fresh.cookie);
    expect(res.status).toBe(200);
    const today = await todayUtc();
    expect(res.body.days).toHaveLength(30);
    res.body.days.forEach((day: Day, i: number) => {
      expect(day).toEqual({ date: dayOf(today, i - 29), insertions: 0, coins: 0, grossUsd: '0', earnedUsd: '0' });
    });
  });

  it('counts today\'s paid insertions, all games or one, and never another developer\'s', async () => {
    const studio = await createDeveloper(t);
    const two = await publishGame(t, studio, { coinsPerCredit: 2 });
    const one = await publishGame(t, studio, { coinsPerCredit: 1 });
    await paidSession(t, player, two.slug);
    await paidSession(t, player, one.slug);
    await paidSession(t, player, foreignGame.slug);
    const all = await daily('', studio.cookie);
    expect(all.status).toBe(200);
    expect(all.body.days.at(-1)).toEqual({ date: await todayUtc(), insertions: 2, coins: 3, grossUsd: '0.75', earnedUsd: '0.525' });
    expect(all.body.days.slice(0, -1).every((day: Day) => day.insertions === 0)).toBe(true);

    const onlyOne = await daily(`?gameId=${one.gameId}`, studio.cookie);
    expect(onlyOne.body.days).toHaveLength(30);
    expect(onlyOne.body.days.at(-1)).toMatchObject({ insertions: 1, coins: 1, grossUsd: '0.25', earnedUsd: '0.175' });
  });

  it('never counts test-mode (preview) insertions', async () => {
    const game = await publishGame(t, dev, { coinsPerCredit: 2 });
    const preview = await startSession(t, dev, game.slug, { preview: true });
    expect(preview.testMode).toBe(true);
    await insertCoin(t, dev, preview.sessionId);
    expect((await days(`?gameId=${game.gameId}`)).every((day) => day.insertions === 0 && day.earnedUsd === '0')).toBe(true);
  });

  it('puts each earning on its UTC calendar day, at both ends of the day and of the window', async () => {
    const game = await publishGame(t, dev, { coinsPerCredit: 4 });
    const today = await todayUtc();
    const insertions: string[] = [];
    for (let i = 0; i < 5; i++) insertions.push((await paidSession(t, player, game.slug)).insertionId);
    await earnedAt(insertions[0]!, `${today}T00:00:00.000Z`); // first instant of today
    await earnedAt(insertions[1]!, `${dayOf(today, -1)}T23:59:59.999Z`); // last instant of yesterday
    await earnedAt(insertions[2]!, `${dayOf(today, -29)}T00:00:00.000Z`); // first instant of the window's first day
    await earnedAt(insertions[3]!, `${dayOf(today, -30)}T23:59:59.999Z`); // just before the window
    // insertions[4] stays now: today.

    const thirty = await days(`?gameId=${game.gameId}`);
    expect(thirty).toHaveLength(30);
    const byDate = new Map(thirty.map((day) => [day.date, day]));
    expect(byDate.get(today)).toEqual({ date: today, insertions: 2, coins: 8, grossUsd: '2', earnedUsd: '1.4' });
    expect(byDate.get(dayOf(today, -1))).toEqual({ date: dayOf(today, -1), insertions: 1, coins: 4, grossUsd: '1', earnedUsd: '0.7' });
    expect(thirty[0]).toEqual({ date: dayOf(today, -29), insertions: 1, coins: 4, grossUsd: '1', earnedUsd: '0.7' });
    expect(thirty.reduce((sum, day) => sum + day.insertions, 0)).toBe(4);

    const thirtyOne = await days(`?gameId=${game.gameId}&days=31`);
    expect(thirtyOne).toHaveLength(31);
    expect(thirtyOne[0]).toEqual({ date: dayOf(today, -30), insertions: 1, coins: 4, grossUsd: '1', earnedUsd: '0.7' });

    const one = await days(`?gameId=${game.gameId}&days=1`);
    expect(one).toEqual([{ date: today, insertions: 2, coins: 8, grossUsd: '2', earnedUsd: '1.4' }]);
  });

  it('answers 366 days at most', async () => {
    const year = await days('?days=366');
    expect(year).toHaveLength(366);
    expect(year.at(-1)!.date).toBe(await todayUtc());
  });

  it('refuses a bad `days` with 400 INVALID_REQUEST, before looking at the game', async () => {
    for (const value of ['0', '367', '1.5', 'abc', '', '-1']) {
      const res = await daily(`?days=${value}&gameId=${foreignGame.gameId}`);
      expect({ value, status: res.status, error: res.body.error }).toEqual({ value, status: 400, error: 'INVALID_REQUEST' });
    }
    const long = await daily(`?gameId=${'a'.repeat(65)}`);
    expect(long.status).toBe(400);
  });

  it('answers 404 NOT_FOUND for another developer\'s game and for unknown ids', async () => {
    for (const gameId of [foreignGame.gameId, '00000000-0000-4000-8000-000000000000', 'not-a-game']) {
      const res = await daily(`?gameId=${gameId}`);
      expect({ gameId, status: res.status, error: res.body.error }).toEqual({ gameId, status: 404, error: 'NOT_FOUND' });
    }
  });

  it('is for developers only', async () => {
    expect((await t.http().get('/api/portal/earnings/daily')).status).toBe(401);
    const res = await daily('', player.cookie);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('FORBIDDEN');
  });
});
