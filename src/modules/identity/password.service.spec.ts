import { randomBytes, scryptSync } from 'node:crypto';
import { hashSync, parseOptions } from '@node-rs/argon2';
import { loadConfig } from '../../config';
import { ServiceUnavailableError } from '../../errors/app-error';
import { ARGON2_PARAMETERS, HashLanes, HashLane, needsRehash, PasswordService } from './password.service';

function service(env: Record<string, string> = {}): PasswordService {
  return new PasswordService(loadConfig({ PASSWORD_HASH_CONCURRENCY: '1', ...env }));
}

/** A hash as the previous release stored it: scrypt N = 2^15, r = 8, p = 1. */
function legacyScrypt(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('PasswordService', () => {
  it('hashes with argon2id at OWASP\'s minimum (m = 19 MiB, t = 2, p = 1) and verifies', async () => {
    const passwords = service();
    const stored = await passwords.hash('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(parseOptions(stored)).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(await passwords.verify('correct horse', stored)).toBe(true);
    expect(await passwords.verify('correct horsf', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('in production hashes at OWASP\'s minimum whatever PASSWORD_HASH_COST says (the cheap cost stops start-up)', async () => {
    const production = new PasswordService(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', PASSWORD_HASH_CONCURRENCY: '1' }));
    expect(production.parameters).toEqual(ARGON2_PARAMETERS);
    expect(await production.hash('correct horse')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', PASSWORD_HASH_COST: 'test' })).toThrow(/PASSWORD_HASH_COST/);
  });

  it('with PASSWORD_HASH_COST=test (test runs only) hashes cheaply, verifies, and rehashes nothing it made itself', async () => {
    const cheap = service({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'test' });
    const stored = await cheap.hash('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    expect(await cheap.verify('correct horse', stored)).toBe(true);
    expect(await cheap.verify('correct horsf', stored)).toBe(false);
    expect(cheap.needsRehash(stored)).toBe(false);
    // a production instance would upgrade such a hash at the next sign-in
    expect(service().needsRehash(stored)).toBe(true);
    expect(needsRehash(stored)).toBe(true);
  });

  it('still verifies the previous release\'s scrypt hashes, and marks them for a rehash', async () => {
    const passwords = service();
    const stored = legacyScrypt('old password');
    expect(await passwords.verify('old password', stored)).toBe(true);
    expect(await passwords.verify('old passwore', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('marks an argon2id hash with cheaper parameters for a rehash', () => {
    expect(needsRehash(hashSync('pw', { ...ARGON2_PARAMETERS, memoryCost: 4096 }))).toBe(true);
    expect(needsRehash(hashSync('pw', { ...ARGON2_PARAMETERS, timeCost: 1 }))).toBe(true);
    expect(needsRehash('$argon2id$garbage')).toBe(true);
  });

  it('refuses a hash with 503 at once when PASSWORD_HASH_CONCURRENCY are running and PASSWORD_HASH_QUEUE are waiting', async () => {
    const passwords = service({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '2' });
    const attempts = Array.from({ length: 5 }, (_, i) => passwords.hash(`password ${i}`).then(() => 'hashed', (error: unknown) => error));
    const outcomes = await Promise.all(attempts);
    expect(outcomes.slice(0, 3)).toEqual(['hashed', 'hashed', 'hashed']);
    for (const refused of outcomes.slice(3)) {
      expect(refused).toBeInstanceOf(ServiceUnavailableError);
      expect((refused as ServiceUnavailableError).headers).toEqual({ 'Retry-After': '1' });
    }
    // once the queue has drained, hashing is open again
    expect(await passwords.hash('later')).toMatch(/^\$argon2id\$/);
  });
});

/**
 * Issue 26 item 9: logins and sign-ups hash in two lanes. With PASSWORD_HASH_CONCURRENCY=1 one hash
 * runs at a time, so the order in which they finish is the order the service chose to run them.
 */
describe('PasswordService lanes: a login never waits behind queued sign-ups', () => {
  const outcome = (promise: Promise<unknown>) => promise.then(() => 'done', (error: unknown) => error);

  it('runs a login started after queued sign-ups as soon as the running hash ends, before the rest of them', async () => {
    const passwords = service({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '10' });
    const stored = await passwords.hash('correct horse');
    const finished: string[] = [];
    const signUps = Array.from({ length: 5 }, (_, i) => passwords.hash(`password ${i}`).then(() => finished.push(`sign-up ${i}`)));
    const login = passwords.verify('correct horse', stored).then((valid) => finished.push(`login ${valid}`));
    await Promise.all([...signUps, login]);
    expect(finished).toEqual(['sign-up 0', 'login true', 'sign-up 1', 'sign-up 2', 'sign-up 3', 'sign-up 4']);
  });

  it('puts the unknown e-mail\'s dummy verification (burn) in the login lane too', async () => {
    const passwords = service({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '10' });
    const finished: string[] = [];
    const signUps = Array.from({ length: 4 }, (_, i) => passwords.hash(`password ${i}`).then(() => finished.push(`sign-up ${i}`)));
    const unknown = passwords.burn('whatever').then(() => finished.push('unknown e-mail'));
    await Promise.all([...signUps, unknown]);
    expect(finished).toEqual(['sign-up 0', 'unknown e-mail', 'sign-up 1', 'sign-up 2', 'sign-up 3']);
  });

  it('puts the rehash of a login\'s weaker stored hash in the login lane', async () => {
    const passwords = service({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '10' });
    const finished: string[] = [];
    const signUps = Array.from({ length: 4 }, (_, i) => passwords.hash(`password ${i}`).then(() => finished.push(`sign-up ${i}`)));
    const rehash = passwords.rehash('correct horse').then((stored) => finished.push(`rehash ${stored.slice(0, 9)}`));
    await Promise.all([...signUps, rehash]);
    expect(finished).toEqual(['sign-up 0', 'rehash $argon2id', 'sign-up 1', 'sign-up 2', 'sign-up 3']);
  });

  it('refuses sign-ups past their own bound with 503 at once, and still verifies a login then', async () => {
    const passwords = service({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '2' });
    const stored = await passwords.hash('correct horse');
    const signUps = Array.from({ length: 6 }, (_, i) => outcome(passwords.hash(`password ${i}`)));
    // the login lane's own bound is 1 running + 2 waiting: two logins and an unknown e-mail fit
    const logins = Array.from({ length: 2 }, () => passwords.verify('correct horse', stored).then((valid) => valid, (error: unknown) => error));
    const unknown = outcome(passwords.burn('whatever'));
    const signUpOutcomes = await Promise.all(signUps);
    expect(signUpOutcomes.slice(0, 3)).toEqual(['done', 'done', 'done']);
    for (const refused of signUpOutcomes.slice(3)) expect(refused).toBeInstanceOf(ServiceUnavailableError);
    expect(await Promise.all(logins)).toEqual([true, true]);
    expect(await unknown).toBe('done');
  });

  it('bounds logins by their own queue: PASSWORD_HASH_CONCURRENCY running and PASSWORD_HASH_QUEUE waiting, then 503', async () => {
    const passwords = service({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '2' });
    const stored = await passwords.hash('correct horse');
    const logins = await Promise.all(Array.from({ length: 5 }, () => passwords.verify('correct horse', stored).then((valid) => valid, (error: unknown) => error)));
    expect(logins.slice(0, 3)).toEqual([true, true, true]);
    for (const refused of logins.slice(3)) {
      expect(refused).toBeInstanceOf(ServiceUnavailableError);
      expect((refused as ServiceUnavailableError).headers).toEqual({ 'Retry-After': '1' });
    }
    // a full login lane does not refuse sign-ups either
    expect(await passwords.hash('later')).toMatch(/^\$argon2id\$/);
  });
});

/** The lane rules alone, with hashes the test ends by hand: which one starts is decided by the lanes, not by timing. */
describe('HashLanes', () => {
  function lanes(concurrency: number, queueLimit: number) {
    const subject = new HashLanes(concurrency, queueLimit);
    const started: string[] = [];
    const finishers = new Map<string, () => void>();
    const outcomes = new Map<string, Promise<unknown>>();
    const submit = (lane: HashLane, name: string) => {
      const task = subject.run(lane, () => {
        started.push(name);
        return new Promise<string>((resolve) => finishers.set(name, () => resolve(name)));
      });
      outcomes.set(name, task.then((value) => value, (error: unknown) => error));
    };
    /** Ends a running hash and lets the lanes hand its slot on. */
    const finish = async (name: string) => {
      finishers.get(name)!();
      await outcomes.get(name);
      await new Promise((resolve) => setImmediate(resolve));
    };
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    return { submit, finish, settle, started, outcome: (name: string) => outcomes.get(name) };
  }

  it('with 2 slots keeps one free of sign-ups: a login starts at once while sign-ups wait', async () => {
    const l = lanes(2, 10);
    for (const name of ['s1', 's2', 's3']) l.submit('sign-up', name);
    await l.settle();
    expect(l.started).toEqual(['s1']);
    l.submit('login', 'l1');
    await l.settle();
    expect(l.started).toEqual(['s1', 'l1']);
    // both slots busy: the next login waits for a slot, and takes it before the waiting sign-ups
    l.submit('login', 'l2');
    await l.finish('s1');
    expect(l.started).toEqual(['s1', 'l1', 'l2']);
    await l.finish('l1');
    expect(l.started).toEqual(['s1', 'l1', 'l2', 's2']);
    await l.finish('l2');
    await l.finish('s2');
    expect(l.started).toEqual(['s1', 'l1', 'l2', 's2', 's3']);
    await l.finish('s3');
    expect(await l.outcome('s3')).toBe('s3');
  });

  it('with 4 slots lets sign-ups use 3 and logins all 4', async () => {
    const l = lanes(4, 10);
    for (const name of ['s1', 's2', 's3', 's4']) l.submit('sign-up', name);
    await l.settle();
    expect(l.started).toEqual(['s1', 's2', 's3']);
    for (const name of ['l1', 'l2']) l.submit('login', name);
    await l.settle();
    expect(l.started).toEqual(['s1', 's2', 's3', 'l1']);
    await l.finish('s1');
    expect(l.started).toEqual(['s1', 's2', 's3', 'l1', 'l2']);
    await l.finish('l1');
    expect(l.started).toEqual(['s1', 's2', 's3', 'l1', 'l2', 's4']);
  });

  it('with 1 slot runs a waiting login next, before sign-ups that waited longer', async () => {
    const l = lanes(1, 10);
    for (const name of ['s1', 's2']) l.submit('sign-up', name);
    l.submit('login', 'l1');
    l.submit('sign-up', 's3');
    l.submit('login', 'l2');
    await l.settle();
    expect(l.started).toEqual(['s1']);
    for (const name of ['s1', 'l1', 'l2', 's2']) await l.finish(name);
    expect(l.started).toEqual(['s1', 'l1', 'l2', 's2', 's3']);
  });

  it('bounds each lane on its own: a full sign-up lane refuses sign-ups only, a full login lane logins only', async () => {
    const l = lanes(2, 1);
    // sign-ups: 1 slot + 1 waiting
    for (const name of ['s1', 's2', 's3']) l.submit('sign-up', name);
    // logins: 2 slots + 1 waiting, though one slot is busy with a sign-up
    for (const name of ['l1', 'l2', 'l3', 'l4']) l.submit('login', name);
    await l.settle();
    expect(await l.outcome('s3')).toBeInstanceOf(ServiceUnavailableError);
    expect(((await l.outcome('s3')) as ServiceUnavailableError).headers).toEqual({ 'Retry-After': '1' });
    expect(await l.outcome('l4')).toBeInstanceOf(ServiceUnavailableError);
    expect(l.started).toEqual(['s1', 'l1']);
    // a finished hash opens its own lane again; refused ones never took a place
    await l.finish('l1');
    l.submit('login', 'l5');
    l.submit('sign-up', 's4');
    await l.settle();
    expect(await l.outcome('s4')).toBeInstanceOf(ServiceUnavailableError);
    for (const name of ['s1', 'l2', 'l3', 'l5', 's2']) await l.finish(name);
    expect(l.started).toEqual(['s1', 'l1', 'l2', 'l3', 'l5', 's2']);
    expect(await l.outcome('l5')).toBe('l5');
    expect(await l.outcome('s2')).toBe('s2');
  }, 5000);
});
