import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../database/unit-of-work';
import { UnauthenticatedError } from '../../errors/app-error';
import { RateLimiter } from '../rate-limits';
import { LoginChallengeRepository } from './login-challenge.repository';
import { LoginSessionService } from './login-session.service';
import { hashToken, newToken, TOKEN_PATTERN } from './random-token';
import { TwoFactorService } from './two-factor.service';

/** A challenge is valid 5 minutes (CONTRACT §20). */
const CHALLENGE_TTL_SECONDS = 5 * 60;

class InvalidChallengeError extends UnauthenticatedError {
  constructor() {
    super('The sign-in has expired or the code was wrong too often: sign in again with your password.');
  }
}

class WrongCodeError extends UnauthenticatedError {
  constructor() {
    super('That code is wrong or was used already.');
  }
}

/**
 * The second step of signing in with two-factor on (CONTRACT §20): a right password gets a
 * challenge (random, only its SHA-256 stored, valid 5 minutes) instead of a cookie; the challenge
 * and a code start the login session. Five wrong codes end the challenge, and each wrong code
 * counts as a failed login for the e-mail (§12).
 */
@Injectable()
export class LoginChallengeService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly challenges: LoginChallengeRepository,
    private readonly twoFactor: TwoFactorService,
    private readonly loginSessions: LoginSessionService,
    private readonly limits: RateLimiter,
  ) {}

  /** Whether signing in to the account needs a code after the password. */
  requiredFor(accountId: string): Promise<boolean> {
    return this.twoFactor.isOn(accountId);
  }

  /** A new challenge for the account; the token is returned once. */
  async issue(accountId: string): Promise<string> {
    const challenge = newToken();
    await this.challenges.insert(accountId, hashToken(challenge), CHALLENGE_TTL_SECONDS);
    return challenge;
  }

  /** Signs in with a live challenge and a right code: 401 for anything else. */
  async complete(challenge: string, code: string, userAgent: string | null): Promise<{ accountId: string; token: string }> {
    if (!TOKEN_PATTERN.test(challenge)) throw new InvalidChallengeError();
    const challengeHash = hashToken(challenge);
    const found = await this.challenges.find(challengeHash);
    if (!found) throw new InvalidChallengeError();
    // Counted as a failure before the code is checked, taken back on success: parallel guesses stop at the limit.
    const attempt = await this.limits.consume({ throttler: 'login-per-email', tracker: found.email });
    let outcome: { accountId: string; token: string } | 'unknown' | 'wrong';
    try {
      outcome = await this.uow.run(async () => {
        const accountId = await this.challenges.lockLive(challengeHash);
        if (!accountId) return 'unknown' as const;
        if (!(await this.twoFactor.useCode(accountId, code))) {
          await this.challenges.countFailure(challengeHash);
          return 'wrong' as const;
        }
        await this.challenges.markUsed(challengeHash);
        return { accountId, token: await this.loginSessions.start(accountId, userAgent) };
      });
    } catch (error) {
      await this.limits.release(attempt);
      throw error;
    }
    if (outcome === 'unknown') {
      await this.limits.release(attempt);
      throw new InvalidChallengeError();
    }
    if (outcome === 'wrong') throw new WrongCodeError();
    await Promise.all([this.limits.release(attempt), this.limits.reset('login-per-email', found.email)]);
    return outcome;
  }

  /** One batch of the retention purge: challenges used, ended or expired by `now`. */
  purgeBatch(now: Date, limit: number): Promise<number> {
    return this.challenges.purgeBatch(now, limit);
  }
}
