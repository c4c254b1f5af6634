import { ExecutionContext, Logger, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ThrottlerModuleOptions, ThrottlerOptions } from '@nestjs/throttler';
import type { Config } from '../../config';
import { ComposedDeclarations, limitRules, unknownLimitVariables } from '../../registry/compose';
import type { ThrottlerName } from '../../registry/declarations';
import type { RateLimitStorage } from './rate-limit.storage';

/**
 * Every limit of the service, by name: the named throttlers of `ThrottlerModule`, one for each limit
 * a module declares (`limits` in its `<module>.declarations.ts`, with its RATE_LIMIT_* variable and
 * default). Two kinds:
 *
 * - Route limits, checked by `AppThrottlerGuard` before the handler runs (`@LimitedBy(...)` on a
 *   route): sign-up per client address and for everyone, where counting first is the point.
 * - Use-case limits, counted by `RateLimiter` inside the use case at the place CONTRACT §16.17
 *   gives limits (after validation, the path's 404, replays, conflicts and range checks):
 *   insert-coin, scores, initials, the developer API, login failures, verification and password-reset mails, purchases. The
 *   guard never applies them (a throttler applies only on the routes that name it, see LimitedBy).
 */
export type { ThrottlerName } from '../../registry/declarations';

/** The tracker of the limits counted for everyone at once. */
export const EVERYONE = 'everyone';

const ROUTE_LIMITS = 'arcade:route-limits';

/** Marks a handler as checked, before it runs, by these named throttlers (and no other): see LimitedBy. */
export function routeLimits(names: readonly ThrottlerName[]): MethodDecorator & ClassDecorator {
  return SetMetadata(ROUTE_LIMITS, names);
}

/** True when the route does not name this throttler: the guard skips it (the throttler's own `skipIf`). */
function skippedOn(name: string): (context: ExecutionContext) => boolean {
  return (context) => {
    const names = reflector.getAllAndOverride<readonly string[] | undefined>(ROUTE_LIMITS, [context.getHandler(), context.getClass()]);
    return !names?.includes(name);
  };
}

const reflector = new Reflector();

/**
 * `ThrottlerModule.forRootAsync` options: every limit the app's modules declare, with its rule from
 * configuration, on the given storage. A `RATE_LIMIT_*` variable no module declares is logged.
 */
export function throttlerOptions(config: Config, storage: RateLimitStorage, declarations: ComposedDeclarations): ThrottlerModuleOptions {
  const unknown = unknownLimitVariables(declarations, config);
  if (unknown.length > 0) new Logger('RateLimits').warn({ variables: unknown }, 'These RATE_LIMIT_* variables name no limit of this service and are ignored');
  const rules = limitRules(declarations, config);
  return {
    storage,
    // The 429 answer carries `Retry-After` itself (AppThrottlerGuard); no X-RateLimit-* headers.
    setHeaders: false,
    throttlers: [...declarations.limits].map(([name, limit]): ThrottlerOptions => ({
      name,
      limit: rules.get(name)!.limit,
      ttl: rules.get(name)!.windowMs,
      blockDuration: 0,
      skipIf: skippedOn(name),
      ...(limit.everyone ? { getTracker: () => EVERYONE } : {}),
    })),
  };
}
