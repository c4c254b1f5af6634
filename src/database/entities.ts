import { AchievementUnlock } from '../modules/achievements/achievement-unlock.entity';
import { AuditLogEntry } from '../modules/audit/audit-log-entry.entity';
import { Achievement } from '../modules/developer-portal/achievement.entity';
import { ApiKey } from '../modules/developer-portal/api-key.entity';
import { Developer } from '../modules/developer-portal/developer.entity';
import { GameVersion } from '../modules/developer-portal/game-version.entity';
import { Game } from '../modules/developer-portal/game.entity';
import { GameThumbnail } from '../modules/developer-portal/game-thumbnail.entity';
import { IdempotencyKey } from '../modules/idempotency/idempotency-key.entity';
import { Account } from '../modules/identity/account.entity';
import { AppSetting } from './app-setting.entity';
import { EmailVerificationToken } from '../modules/identity/email-verification-token.entity';
import { LoginSession } from '../modules/identity/login-session.entity';
import { PasswordResetToken } from '../modules/identity/password-reset-token.entity';
import { EmailChangeToken } from '../modules/identity/email-change-token.entity';
import { Player } from '../modules/identity/player.entity';
import { LoginChallenge } from '../modules/identity/login-challenge.entity';
import { TwoFactorRecoveryCode, TwoFactorSettings } from '../modules/identity/two-factor.entity';
import { PlaySession } from '../modules/play-sessions/play-session.entity';
import { Score } from '../modules/scoring/score.entity';
import { DeveloperEarning } from '../modules/wallet/developer-earning.entity';
import { Insertion } from '../modules/wallet/insertion.entity';
import { LedgerEntry } from '../modules/wallet/ledger-entry.entity';
import { Wallet } from '../modules/wallet/wallet.entity';
import { InsertionVoid } from '../modules/wallet/insertion-void.entity';
import { PaymentEventConflict, RecordedPaymentEvent } from '../modules/payments/payment-event.entity';
import { Purchase } from '../modules/payments/purchase.entity';

/**
 * Every entity of the service, for the one DataSource (which must know them all before Nest
 * starts: createApp migrates first). Each module also registers its own with
 * `TypeOrmModule.forFeature`.
 */
export const ENTITIES = [
  Account, AppSetting, EmailVerificationToken, LoginSession, PasswordResetToken, Player,
  EmailChangeToken,
  TwoFactorSettings, TwoFactorRecoveryCode, LoginChallenge,
  Wallet, LedgerEntry, Insertion, DeveloperEarning,
  Developer, Game, GameThumbnail, GameVersion, Achievement, ApiKey,
  PlaySession,
  IdempotencyKey,
  Score,
  AchievementUnlock,
  AuditLogEntry,
  Purchase, RecordedPaymentEvent, PaymentEventConflict, InsertionVoid,
];
