import { scrypt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type Algorithm, hash, hashSync, parseOptions, verify } from '@node-rs/argon2';
import pLimit, { LimitFunction } from 'p-limit';
import { CONFIG, Config, PasswordHashCost } from '../../config';
import { ServiceUnavailableError } from '../../errors/app-error';

export interface Argon2Parameters {
  readonly algorithm: Algorithm;
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/**
 * Argon2id with OWASP's minimum parameters (Password Storage Cheat Sheet: m = 19 MiB, t = 2, p = 1),
 * in the PHC string format that stores them with each hash. Chosen over scrypt at OWASP's N = 2^17
 * (128 MiB and about 350 ms a hash here) for its memory: a few hashes at once fit the 256 MB
 * process budget.
 */
export const ARGON2_PARAMETERS: Argon2Parameters = Object.freeze({
  // Algorithm.Argon2id: a const enum that the package does not export at run time.
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

/**
 * PASSWORD_HASH_COST=test (accepted only when NODE_ENV=test, see config.ts): argon2id with 64 KiB
 * and one pass, under a millisecond instead of tens, so a test run that signs up thousands of
 * users does not spend minutes hashing. Production cannot select it.
 */
export const TEST_ONLY_ARGON2_PARAMETERS: Argon2Parameters = Object.freeze({ ...ARGON2_PARAMETERS, memoryCost: 64, timeCost: 1 });

/** The parameters a configuration hashes with. */
export function argon2ParametersFor(cost: PasswordHashCost): Argon2Parameters {
  return cost === 'test' ? TEST_ONLY_ARGON2_PARAMETERS : ARGON2_PARAMETERS;
}

/** True when a stored hash is weaker than `parameters` (or another scheme): rehash it at the next sign-in. */
export function needsRehash(stored: string, parameters: Argon2Parameters = ARGON2_PARAMETERS): boolean {
  if (!stored.startsWith('$argon2id$')) return true;
  try {
    const used = parseOptions(stored);
    return used.memoryCost < parameters.memoryCost || used.timeCost < parameters.timeCost;
  } catch {
    return true;
  }
}

/** Hashes of an earlier release: `scrypt$logN$r$p$salt$hash` (base64url). Verified, then rehashed. */
function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, logN, r, p, salt, expected] = stored.split('$');
  if (!salt || !expected || !/^\d+$/.test(`${logN}${r}${p}`) || Number(logN) > 20) return Promise.resolve(false);
  const N = 2 ** Number(logN);
  const want = Buffer.from(expected, 'base64url');
  return new Promise((resolve, reject) =>
    scrypt(password, Buffer.from(salt, 'base64url'), want.length, { N, r: Number(r), p: Number(p), maxmem: 256 * N * Number(r) + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key.length === want.length && timingSafeEqual(key, want)),
    ),
  );
}

/**
 * Password hashing through a bounded queue. Each hash runs on a libuv pool thread, the pool the
 * database driver also needs (its SCRAM handshake, DNS lookups); at most
 * PASSWORD_HASH_CONCURRENCY hashes run at once, and src/threadpool.ts sizes the pool to that plus
 * libuv's default 4, so a flood of sign-ups or logins can never take every thread. At most
 * PASSWORD_HASH_QUEUE more wait; beyond that the request answers 503 at once instead of queueing
 * for ever (the sign-up and login limits keep floods from getting here in the first place).
 */
@Injectable()
export class PasswordService {
  private readonly queue: LimitFunction;
  /** Hashes running plus waiting, at most. */
  private readonly capacity: number;
  /** Argon2id parameters of new hashes: OWASP's minimum except in a test run that asked for less. */
  readonly parameters: Argon2Parameters;
  /** Once, at start-up (a few milliseconds), outside the queue. */
  private readonly dummy: string;

  constructor(@Inject(CONFIG) config: Config) {
    this.queue = pLimit(config.passwordHashing.concurrency);
    this.capacity = config.passwordHashing.concurrency + config.passwordHashing.queueLimit;
    this.parameters = argon2ParametersFor(config.passwordHashing.cost);
    this.dummy = hashSync('not-a-real-password-only-burns-time', this.parameters);
  }

  hash(password: string): Promise<string> {
    return this.enqueue(() => hash(password, this.parameters));
  }

  /** True when a stored hash is weaker than this service's parameters: rehash it at the next sign-in. */
  needsRehash(stored: string): boolean {
    return needsRehash(stored, this.parameters);
  }

  verify(password: string, stored: string): Promise<boolean> {
    if (stored.startsWith('scrypt$')) return this.enqueue(() => verifyLegacyScrypt(password, stored));
    if (!stored.startsWith('$argon2')) return Promise.resolve(false);
    return this.enqueue(() => verify(stored, password));
  }

  /** Spends the time of one verification, so an unknown e-mail answers as slowly as a wrong password. */
  async burn(password: string): Promise<void> {
    await this.verify(password, this.dummy);
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    if (this.queue.activeCount + this.queue.pendingCount >= this.capacity) {
      return Promise.reject(new ServiceUnavailableError('Too many sign-ins at the moment; try again in a second.'));
    }
    return this.queue(work);
  }
}
