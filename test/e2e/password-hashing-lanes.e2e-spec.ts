import type { TestApp } from '../support/app';
import { createTestApp } from '../support/app';
import { signUpPlayer, uniqueEmail } from '../support/factories';

/**
 * Issue 26 item 9: a sign-up flood filled the one password-hashing queue, and a bystander's login
 * waited behind it (p95 3 s) or answered 503. Logins and sign-ups now hash in two lanes
 * (docs/rate-limits.md). One hash at a time (PASSWORD_HASH_CONCURRENCY=1) at production's cost:
 * the tests compare the order in which answers arrive, never how long they took.
 */
describe('password hashing: a login never waits behind queued sign-ups', () => {
  const signUp = (t: TestApp) =>
    t.http().post('/auth/signup').send({ email: uniqueEmail('lane'), password: 'lane-password-1', displayName: 'Lane' }).then((res) => res.status);

  describe('with room for every sign-up in the queue', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { PASSWORD_HASH_COST: 'owasp', PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '50' } });
    });
    afterAll(async () => t.close());

    it('answers a login sent after 12 queued sign-ups before most of those sign-ups', async () => {
      const bystander = await signUpPlayer(t);
      const answered: string[] = [];
      let firstAnswered!: () => void;
      const oneAnswered = new Promise<void>((resolve) => (firstAnswered = resolve));
      const signUps = Array.from({ length: 12 }, (_, i) =>
        signUp(t).then((status) => {
          answered.push(`sign-up ${status}`);
          firstAnswered();
          return i;
        }),
      );
      // By the time one sign-up has been hashed and stored, the other eleven wait for a hash.
      await oneAnswered;
      const login = t
        .http()
        .post('/auth/login')
        .send({ email: bystander.email, password: bystander.password })
        .then((res) => answered.push(`login ${res.status}`));
      await Promise.all([...signUps, login]);

      expect(answered.filter((a) => a.startsWith('sign-up'))).toEqual(Array(12).fill('sign-up 201'));
      const loginAt = answered.indexOf('login 200');
      expect(loginAt).toBeGreaterThan(0);
      // Behind the one hash running when it came (and perhaps one more that started while it looked
      // the account up), never behind the queue: today's main answered it after all twelve.
      const signUpsAfterLogin = answered.length - 1 - loginAt;
      expect(signUpsAfterLogin).toBeGreaterThanOrEqual(6);
    });
  });

  describe('with sign-ups overflowing their queue', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { PASSWORD_HASH_COST: 'owasp', PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '3' } });
    });
    afterAll(async () => t.close());

    it('refuses the overflowing sign-ups 503 at once and answers every login (and unknown e-mail) meanwhile', async () => {
      const bystander = await signUpPlayer(t);
      let stop = false;
      const statuses: number[] = [];
      // Ten clients that sign up again as soon as they are answered: the sign-up lane (1 running,
      // 3 waiting) stays full and every moment some sign-up is being refused.
      const flood = Promise.all(
        Array.from({ length: 10 }, async () => {
          while (!stop) {
            const status = await signUp(t);
            statuses.push(status);
            if (status === 503) await new Promise((resolve) => setTimeout(resolve, 5));
          }
        }),
      );
      const logins: number[] = [];
      try {
        // The flood is on: its queue has overflowed at least once.
        while (!statuses.includes(503)) await new Promise((resolve) => setTimeout(resolve, 5));
        for (let i = 0; i < 6; i++) {
          logins.push((await t.http().post('/auth/login').send({ email: bystander.email, password: bystander.password })).status);
          // an unknown e-mail burns a verification in the same lane, and answers 401 as ever
          logins.push((await t.http().post('/auth/login').send({ email: uniqueEmail('nobody'), password: 'some-password-1' })).status);
        }
      } finally {
        stop = true;
        await flood;
      }
      expect(logins).toEqual([200, 401, 200, 401, 200, 401, 200, 401, 200, 401, 200, 401]);
      expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    });

    it('answers a refused sign-up with SERVICE_UNAVAILABLE and Retry-After: 1', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => t.http().post('/auth/signup').send({ email: uniqueEmail('lane'), password: 'lane-password-1', displayName: 'Lane' })),
      );
      const refused = answers.filter((res) => res.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const res of refused) {
        expect(res.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
        expect(res.headers['retry-after']).toBe('1');
      }
    });
  });
});
