import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { authParam } from '../../http/route-auth';
import type { AuthenticatedRequest } from '../../http/account-auth';
import type { AuditActor } from './audit.rules';

/**
 * The signed-in caller as the actor of an audited action, with the request id its answer carries
 * (`X-Request-Id`). On cookie routes only (`SignedIn()`, `DeveloperAuth()`, `AdminAuth()`...):
 * start-up refuses it anywhere else.
 */
export const Actor = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuditActor => {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & { id?: string }>();
    if (!request.auth) throw new Error('@Actor() found no signed-in caller on the request: check the route\'s auth decorator.');
    return { actorId: request.auth.accountId, requestId: request.id ?? null };
  },
  [authParam({ decorator: '@Actor()', kinds: ['signed-in', 'player', 'developer', 'admin'] })],
);
