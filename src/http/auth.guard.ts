import { CanActivate, ExecutionContext, Inject, Injectable, Logger, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModuleRef, Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { CONFIG, Config } from '../config';
import { UnauthenticatedError } from '../errors/app-error';
import { AUTH_KIND, IS_PUBLIC, SAME_ORIGIN } from './public.decorator';
import { AUTH_PARAMS, AuthParam, AuthRequirement, RouteAuthenticator } from './route-auth';
import { allowedOrigins, assertSameOrigin } from './same-origin';

/** What the guard does for one route, worked out once from its metadata. */
interface RoutePlan {
  /** Neither @Public() nor an auth requirement: refused with 401 (fail closed). */
  unmarked: boolean;
  sameOrigin: boolean;
  requirement: AuthRequirement | undefined;
  authenticator: RouteAuthenticator | undefined;
}

/** A controller class or a handler, as Nest's ExecutionContext and Reflector type them. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- ExecutionContext.getHandler() returns Function
type Fn = Function;

const allow = () => true;

/**
 * The global guard (APP_GUARD): secure by default. A route runs only when it is `@Public()` or
 * carries an auth requirement (`PlayerAuth()`, `DeveloperAuth()`, `ApiKeyAuth()`, ...); a route with
 * neither answers 401, and start-up logs it. The requirement's authenticator, owned by its context
 * (identity: cookie; developer-portal: API key), applies the CONTRACT §16.17 order.
 *
 * At start-up it also refuses to boot when a handler's typed parameter decorator (`@CurrentPlayer()`,
 * `@OptionalAccount()`, ...) reads a context its route does not establish, or a route is both public
 * and authenticated. Plans are cached per controller and handler: one map lookup per request.
 */
@Injectable()
export class AuthGuard implements CanActivate, OnApplicationBootstrap {
  private readonly logger = new Logger('AuthGuard');
  private readonly plans = new Map<Fn, Map<Fn, RoutePlan>>();
  private readonly origins: Set<string>;

  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    @Inject(CONFIG) config: Config,
  ) {
    this.origins = allowedOrigins(config);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const controller = context.getClass();
    const handler = context.getHandler();
    const plan = this.plans.get(controller)?.get(handler) ?? this.plan(controller, handler);
    const request = context.switchToHttp().getRequest<Request>();
    if (plan.sameOrigin) assertSameOrigin(request, this.origins);
    if (plan.authenticator) return plan.authenticator.authenticate(request, plan.requirement as never).then(allow);
    if (plan.unmarked) throw new UnauthenticatedError();
    return true;
  }

  /** Plans every route now, so a misuse stops start-up instead of surfacing on a request. */
  onApplicationBootstrap(): void {
    const problems: string[] = [];
    const unmarked: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, Fn>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name]!;
        const method: RequestMethod | undefined = Reflect.getMetadata(METHOD_METADATA, handler);
        if (method === undefined || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        try {
          if (this.plan(controller, handler).unmarked) unmarked.push(`${RequestMethod[method]} ${controller.name}.${name}`);
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
    }
    if (problems.length > 0) throw new Error(`Route auth misconfigured:\n${problems.join('\n')}`);
    if (unmarked.length > 0) {
      this.logger.error(`Routes with neither an auth decorator nor @Public() answer 401: ${unmarked.join(', ')}`);
    }
  }

  private plan(controller: Fn, handler: Fn): RoutePlan {
    const targets = [handler, controller];
    const where = `${controller.name}.${handler.name}`;
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true;
    let requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_KIND, targets);
    if (isPublic && requirement) throw new Error(`${where} is both @Public() and requires ${requirement.kind}.`);
    const params: AuthParam[] = Reflect.getMetadata(AUTH_PARAMS, handler) ?? [];
    for (const param of params) {
      if (param.optional) {
        if (!isPublic) throw new Error(`${where} uses ${param.decorator} but is not @Public(): an authenticated route reads its caller with @CurrentAccount() or a typed decorator.`);
        requirement = param.optional;
      } else if (!requirement || !param.kinds.includes(requirement.kind)) {
        throw new Error(`${where} uses ${param.decorator}, which needs a route requiring ${param.kinds.join(' or ')}; the route requires ${requirement?.kind ?? 'nothing (public)'}.`);
      }
    }
    const plan: RoutePlan = {
      unmarked: !isPublic && !requirement,
      sameOrigin: this.reflector.getAllAndOverride<boolean | undefined>(SAME_ORIGIN, targets) === true,
      requirement,
      authenticator: requirement ? this.moduleRef.get(requirement.authenticator, { strict: false }) : undefined,
    };
    let byHandler = this.plans.get(controller);
    if (!byHandler) this.plans.set(controller, (byHandler = new Map()));
    byHandler.set(handler, plan);
    return plan;
  }
}
