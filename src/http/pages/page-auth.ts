/**
 * Who may see a page (CONTRACT §17): a signed-out visitor is sent to sign in and comes back; a
 * visitor without the page's role, or looking at someone else's resource, gets the 404 page.
 * Page routes are `@Public()` for the API's auth (they never answer 401/403 JSON) and use
 * `@Page(access)` instead, which resolves the login session once and hands it to the handler.
 */
import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../public.decorator';
import { AccountAuthenticator, AdminContext, DeveloperContext, isAdmin, isDeveloper } from '../account-auth';
import type { Viewer } from './layout';
import { PageNotFound, PageTwoFactorRequired, SignInRequired } from './page.errors';
import { PageFilter } from './page.filter';

/** `anyone`: signed out too (the header still shows who is signed in). The others need a login session. */
export type PageAccess = 'anyone' | 'signed-in' | 'developer' | 'admin';

const PAGE_ACCESS = 'arcade:page-access';

export type PageRequest = Request & { viewer?: Viewer | null };

export { PageNotFound, SignInRequired, signInPath } from './page.errors';

/** A developer looking at a page of the developer portal. */
export type DeveloperViewer = DeveloperContext;

/** Where to go after signing in (`next`) or back from checkout (`return`): the one rule, in src/http. */
export { safeRedirectPath as safeNext } from '../redirect-target';

/**
 * Resolves the login session of every page request, then applies the page's access rule. The
 * account authenticator is identity's, found app-wide like the global AuthGuard finds it: a module
 * with pages needs no import of identity.
 */
@Injectable()
export class PageGuard implements CanActivate {
  private accounts: AccountAuthenticator | undefined;

  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<PageAccess | undefined>(PAGE_ACCESS, [context.getHandler(), context.getClass()]) ?? 'anyone';
    const request = context.switchToHttp().getRequest<PageRequest>();
    const accounts = (this.accounts ??= this.moduleRef.get(AccountAuthenticator, { strict: false }));
    if (!accounts) throw new Error('No AccountAuthenticator: the identity module is not loaded.');
    const viewer = (await accounts.currentAccount(request)) ?? null;
    request.viewer = viewer;
    if (access === 'anyone') return true;
    if (!viewer) throw new SignInRequired();
    if (access === 'developer' && !isDeveloper(viewer)) throw new PageNotFound();
    if (access === 'admin' && !isAdmin(viewer)) throw new PageNotFound();
    if (access === 'admin' && !(await accounts.adminAllowed(viewer))) throw new PageTwoFactorRequired();
    return true;
  }
}

const HTML = { 'text/html': { schema: { type: 'string' } } };

/**
 * An HTML page of the service: `@Public()` for the API guards, the page's access rule, the page
 * error filter (sign-in redirect, 404 page), and its OpenAPI entry.
 */
export function Page(access: PageAccess, doc: { summary: string; description?: string }) {
  const decorators = [
    Public(),
    SetMetadata(PAGE_ACCESS, access),
    UseGuards(PageGuard),
    UseFilters(PageFilter),
    ApiOperation(doc),
    ApiProduces('text/html'),
    ApiOkResponse({ description: 'The HTML page', content: HTML }),
    ApiNotFoundResponse({
      description: access === 'anyone' ? 'The HTML 404 page' : 'The HTML 404 page: unknown or foreign resource, or a role the visitor lacks',
      content: HTML,
    }),
  ];
  if (access !== 'anyone') {
    decorators.push(
      ApiResponse({
        status: 302,
        description: 'Signed out: redirect to /auth/login?next=<this path>',
        headers: { Location: { description: 'The sign-in page', schema: { type: 'string' } } },
      }),
    );
  }
  return applyDecorators(...decorators);
}

function viewerOf(context: ExecutionContext): Viewer | null {
  const viewer = context.switchToHttp().getRequest<PageRequest>().viewer;
  if (viewer === undefined) throw new Error('A page viewer decorator used on a route without @Page().');
  return viewer;
}

/** The signed-in account on an `anyone` page, or null. */
export const OptionalViewer = createParamDecorator((_data: unknown, context: ExecutionContext): Viewer | null => viewerOf(context));

/** The signed-in account on a `signed-in`, `developer` or `admin` page. */
export const CurrentViewer = createParamDecorator((_data: unknown, context: ExecutionContext): Viewer => {
  const viewer = viewerOf(context);
  if (!viewer) throw new Error('@CurrentViewer() used on an `anyone` page.');
  return viewer;
});

/** The developer on a `developer` page. */
export const CurrentDeveloperViewer = createParamDecorator((_data: unknown, context: ExecutionContext): DeveloperViewer => {
  const viewer = viewerOf(context);
  if (!viewer || !isDeveloper(viewer)) throw new Error('@CurrentDeveloperViewer() used on a page that is not `developer`.');
  return viewer;
});

/** The administrator on an `admin` page. */
export const CurrentAdminViewer = createParamDecorator((_data: unknown, context: ExecutionContext): AdminContext => {
  const viewer = viewerOf(context);
  if (!viewer || !isAdmin(viewer)) throw new Error('@CurrentAdminViewer() used on a page that is not `admin`.');
  return viewer;
});
