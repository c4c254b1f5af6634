import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { CONFIG, Config } from '../../config';
import { ForbiddenError, UnauthenticatedError } from '../../errors/app-error';
import { AUTH_KIND } from '../../http/public.decorator';
import { allowedOrigins, assertSameOrigin } from '../../http/same-origin';
import { readAuthToken } from './auth-cookie';
import { AccountNotLinkedError, EmailNotVerifiedError } from './identity.errors';
import { AuthContext, LoginSessionService } from './login-session.service';

/** What a cookie-authenticated route requires, set by the composite decorators. */
export interface CookieAuthRequirement {
  kind: 'signed-in' | 'player' | 'developer' | 'admin';
  emailVerified: boolean;
}

export type AuthenticatedRequest = Request & { auth?: AuthContext };

/**
 * Cookie authentication and authorisation in the order of CONTRACT §16.17: signed in (401), same
 * origin (403 FORBIDDEN), e-mail verified (403), player linked (403), role (403 FORBIDDEN).
 */
@Injectable()
export class CookieAuthGuard implements CanActivate {
  private readonly origins: Set<string>;

  constructor(
    private readonly reflector: Reflector,
    private readonly loginSessions: LoginSessionService,
    @Inject(CONFIG) config: Config,
  ) {
    this.origins = allowedOrigins(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<CookieAuthRequirement | undefined>(AUTH_KIND, [context.getHandler(), context.getClass()]);
    if (!requirement) throw new Error('CookieAuthGuard used without an auth decorator.');
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const auth = await this.loginSessions.resolve(readAuthToken(request));
    if (!auth) throw new UnauthenticatedError('Sign in first.');
    assertSameOrigin(request, this.origins);
    if (requirement.emailVerified && !auth.emailVerified) throw new EmailNotVerifiedError();
    if (requirement.kind === 'player' && !auth.playerId) throw new AccountNotLinkedError();
    if (requirement.kind === 'developer' && !auth.developerId) {
      throw new ForbiddenError('This needs a developer account: create one with POST /api/portal/developer.');
    }
    if (requirement.kind === 'admin' && !auth.isAdmin) throw new ForbiddenError('This needs an administrator.');
    request.auth = auth;
    return true;
  }
}

/** Same-origin rule for public state-changing endpoints (sign-up, login, logout, verification). */
@Injectable()
export class SameOriginGuard implements CanActivate {
  private readonly origins: Set<string>;

  constructor(@Inject(CONFIG) config: Config) {
    this.origins = allowedOrigins(config);
  }

  canActivate(context: ExecutionContext): boolean {
    assertSameOrigin(context.switchToHttp().getRequest<Request>(), this.origins);
    return true;
  }
}
