/** The identity module's public entry (accounts, login sessions, e-mail verification and player profiles): other modules import only what is here (docs/architecture.md). */
export { IdentityModule } from './identity.module';
export { AccountsService } from './accounts.service';
export type { AdminUserView } from './accounts.service';
export { EmailVerificationService } from './email-verification.service';
export { PasswordResetService } from './password-reset.service';
export { EmailChangeService } from './email-change.service';
export { LoginSessionService } from './login-session.service';
export { LoginChallengeService } from './login-challenge.service';
export { liveLoginSessionSql, readWithLoginState, requireLiveLogin, splitLoginState } from './login-state';
export type { LoginState } from './login-state';
export { PlayersService } from './players.service';
export { UserModerationService } from './user-moderation.service';
export { normalizeEmail } from './email-address';
export { AdminUserDto, AdminUserResponseDto, UserResponseDto } from './identity.dto';
export { AccountNotLinkedError } from './identity.errors';
export { levelOf, xpToNextLevel } from './player.rules';
