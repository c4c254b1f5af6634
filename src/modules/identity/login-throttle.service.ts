import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { RateLimitedError } from '../../errors/app-error';
import { LoginThrottleRepository } from './login-throttle.repository';

function subject(kind: 'email' | 'address', value: string): Buffer {
  return createHash('sha256').update(`${kind}:${kind === 'email' ? value.toLowerCase() : value}`).digest();
}

/**
 * Login limits per client address and per e-mail (CONTRACT §2, §12), counting failed attempts in
 * the database (shared by every instance). Checked before the password: once a limit is reached,
 * even the right password answers 429 until the window moves on, so guessing learns nothing.
 * Successful sign-ins never count, and one clears the e-mail's failures (not the address's).
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly failures: LoginThrottleRepository,
  ) {}

  async assertAllowed(email: string, address: string): Promise<void> {
    const { loginPerAddress, loginPerEmail } = this.config.rateLimits;
    const waits = await Promise.all([
      this.failures.retryAfterMs(subject('address', address), loginPerAddress.limit, loginPerAddress.windowMs),
      this.failures.retryAfterMs(subject('email', email), loginPerEmail.limit, loginPerEmail.windowMs),
    ]);
    const wait = Math.max(...waits);
    if (wait > 0) throw new RateLimitedError(wait);
  }

  async recordFailure(email: string, address: string): Promise<void> {
    await this.failures.record([subject('address', address), subject('email', email)]);
    // Roughly one failure in a hundred also sweeps out day-old rows.
    if (Math.random() < 0.01) await this.failures.prune();
  }

  async recordSuccess(email: string): Promise<void> {
    await this.failures.forget(subject('email', email));
  }
}
