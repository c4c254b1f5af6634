import { scrypt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type Algorithm, hash, hashSync, parseOptions, verify } from '@node-rs/argon2';
import PQueue from 'p-queue';
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

/** Who a hash is for: a login (its verification, an unknown e-mail's dummy one, its rehash) or a new password. */
export type HashLane = 'login' | 'sign-up';

/** Greater runs first: the next free slot goes to a waiting login (p-queue's priority). */
const PRIORITY: Record<HashLane, number> = { login: 1, 'sign-up': 0 };

const REFUSED: Record<HashLane, string> = {
  login: 'Too many sign-ins at the moment; try again in a second.',
  'sign-up': 'Too many sign-ups at the moment; try again in a second.',
};

/**
 * Two lanes over PASSWORD_HASH_CONCURRENCY hashing slots, so a sign-up flood cannot make logins
 * wait or fail (issue 26 item 9: behind 100 queued sign-ups a login's p95 was 3 s, and some
 * answered 503 because sign-ups had filled the one shared queue):
 * - Sign-ups use at most concurrency - 1 slots (one when concurrency is 1), so with two or more
 *   slots one is always free of sign-ups; with one, a login waits for the one running hash only.
 * - A waiting login takes the next free slot before any waiting sign-up (priority), so a login
 *   waits only behind other logins.
 * - Each lane has its own bound: its running hashes plus PASSWORD_HASH_QUEUE waiting; past it that
 *   lane answers 503 at once. A full sign-up lane never refuses a login, nor the other way round.
 */
export class HashLanes {
  private readonly slots: PQueue;
  /** Sign-ups pass this gate first: it keeps them to their share of the slots. */
  private readonly signUpGate: PQueue;
  private readonly capacity: Record<HashLane, number>;
  /** Hashes running or waiting, per lane. */
  private readonly held: Record<HashLane, number> = { login: 0, 'sign-up': 0 };

  constructor(concurrency: number, queueLimit: number) {
    const signUpSlots = Math.max(1, concurrency - 1);
    this.slots = new PQueue({ concurrency });
    this.signUpGate = new PQueue({ concurrency: signUpSlots });
    this.capacity = { login: concurrency + queueLimit, 'sign-up': signUpSlots + queueLimit };
  }

  run<T>(lane: HashLane, work: () => Promise<T>): Promise<T> {
    if (this.held[lane] >= this.capacity[lane]) return Promise.reject(new ServiceUnavailableError(REFUSED[lane]));
    this.held[lane]++;
    const inSlot = () => this.slots.add(work, { priority: PRIORITY[lane] });
    const task = lane === 'sign-up' ? this.signUpGate.add(inSlot) : inSlot();
    return task.finally(() => this.held[lane]--);
  }
}

/**
 * Password hashing in bounded lanes (HashLanes). Each hash runs on a libuv pool thread, the pool
 * the database driver also needs (its SCRAM handshake, DNS lookups); at most
 * PASSWORD_HASH_CONCURRENCY hashes run at once, and src/threadpool.ts sizes the pool to that plus
 * libuv's default 4, so a flood of sign-ups or logins can never take every thread. Logins go
 * before sign-ups; each lane answers 503 at once past its bound instead of queueing for ever (the
 * sign-up and login limits keep floods from getting here in the first place).
 */
@Injectable()
export class PasswordService {
  private readonly lanes: HashLanes;
  /** Argon2id parameters of new hashes: OWASP's minimum except in a test run that asked for less. */
  readonly parameters: Argon2Parameters;
  /** Once, at start-up (a few milliseconds), outside the lanes. */
  private readonly dummy: string;

  constructor(@Inject(CONFIG) config: Config) {
    this.lanes = new HashLanes(config.passwordHashing.concurrency, config.passwordHashing.queueLimit);
    this.parameters = argon2ParametersFor(config.passwordHashing.cost);
    this.dummy = hashSync('not-a-real-password-only-burns-time', this.parameters);
  }

  /** A new password's hash (sign-up, start-up accounts): the sign-up lane. */
  hash(password: string): Promise<string> {
    return this.lanes.run('sign-up', () => hash(password, this.parameters));
  }

  /** Today's hash of a password a login just proved (its stored hash was weaker): the login lane, so a sign-up flood cannot fail that login. */
  rehash(password: string): Promise<string> {
    return this.lanes.run('login', () => hash(password, this.parameters));
  }

  /** True when a stored hash is weaker than this service's parameters: rehash it at the next sign-in. */
  needsRehash(stored: string): boolean {
    return needsRehash(stored, this.parameters);
  }

  /** A login's check: the login lane. */
  verify(password: string, stored: string): Promise<boolean> {
    if (stored.startsWith('scrypt$')) return this.lanes.run('login', () => verifyLegacyScrypt(password, stored));
    if (!stored.startsWith('$argon2')) return Promise.resolve(false);
    return this.lanes.run('login', () => verify(stored, password));
  }

  /**
   * Spends the time of one verification, so an unknown e-mail answers as slowly as a wrong
   * password: in the login lane like a real one, else its wait would tell the two apart.
   */
  async burn(password: string): Promise<void> {
    await this.verify(password, this.dummy);
  }
}
