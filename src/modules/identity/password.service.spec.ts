import { randomBytes, scryptSync } from 'node:crypto';
import { hashSync, parseOptions } from '@node-rs/argon2';
import { loadConfig } from '../../config';
import { ServiceUnavailableError } from '../../errors/app-error';
import { ARGON2_PARAMETERS, needsRehash, PasswordService } from './password.service';

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
