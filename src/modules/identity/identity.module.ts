import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { RateLimitsModule } from '../rate-limits';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from './account.entity';
import { EmailVerificationToken } from './email-verification-token.entity';
import { LoginSession } from './login-session.entity';
import { PasswordResetToken } from './password-reset-token.entity';
import { EmailChangeToken } from './email-change-token.entity';
import { EmailChangeController } from './email-change.controller';
import { EmailChangeRepository } from './email-change.repository';
import { EmailChangeService } from './email-change.service';
import { Player } from './player.entity';
import { LoginChallenge } from './login-challenge.entity';
import { TwoFactorRecoveryCode, TwoFactorSettings } from './two-factor.entity';
import { LoginChallengeRepository } from './login-challenge.repository';
import { LoginChallengeService } from './login-challenge.service';
import { TwoFactorController } from './two-factor.controller';
import { TwoFactorRepository } from './two-factor.repository';
import { TwoFactorService } from './two-factor.service';
import { AccountRepository } from './account.repository';
import { AccountsService } from './accounts.service';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { AuthController } from './auth.controller';
import { EmailVerificationRepository } from './email-verification.repository';
import { EmailVerificationService } from './email-verification.service';
import { MailModule } from '../mail';
import { AccountAuthenticator } from '../../http/account-auth';
import { CookieAuthenticator } from './cookie.authenticator';
import { LoginSessionRepository } from './login-session.repository';
import { LoginSessionService } from './login-session.service';
import { MeController } from './me.controller';
import { SettingsController } from './settings.controller';
import { SettingsPageController } from './settings-page.controller';
import { AccountSettingsService } from './account-settings.service';
import { PasswordService } from './password.service';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetRepository } from './password-reset.repository';
import { PasswordResetService } from './password-reset.service';
import { PlayerRepository } from './player.repository';
import { PlayersService } from './players.service';
import { UserModerationService } from './user-moderation.service';
import { AccountErasureService } from './account-erasure.service';
import { Declares } from '../../registry/declarations';
import { IDENTITY } from './identity.declarations';

/**
 * Accounts, login sessions and players. Cookie routes in any module need no import of this: the
 * global AuthGuard and PageGuard find its AccountAuthenticator app-wide. Modules that use its
 * services import it.
 */
@Declares(IDENTITY)
@Module({
  imports: [TypeOrmModule.forFeature([Account, EmailVerificationToken, LoginSession, PasswordResetToken, Player, TwoFactorSettings, TwoFactorRecoveryCode, LoginChallenge, EmailChangeToken]), RateLimitsModule, AuditModule, MailModule],
  controllers: [AuthController, MeController, SettingsController, SettingsPageController, PasswordResetController, TwoFactorController, EmailChangeController],
  providers: [
    AccountRepository,
    PlayerRepository,
    LoginSessionRepository,
    PasswordService,
    EmailVerificationRepository,
    EmailVerificationService,
    PasswordResetRepository,
    PasswordResetService,
    EmailChangeRepository,
    EmailChangeService,
    LoginSessionService,
    AccountsService,
    AccountSettingsService,
    PlayersService,
    UserModerationService,
    AccountErasureService,
    AdminBootstrapService,
    CookieAuthenticator,
    TwoFactorRepository,
    TwoFactorService,
    LoginChallengeRepository,
    LoginChallengeService,
    // The global AuthGuard finds cookie authentication under this framework-level token (src/http/account-auth.ts).
    { provide: AccountAuthenticator, useExisting: CookieAuthenticator },
  ],
  exports: [LoginSessionService, LoginChallengeService, EmailVerificationService, PasswordResetService, EmailChangeService, AccountsService, PlayersService, UserModerationService, AccountErasureService],
})
export class IdentityModule {}
