import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { AUTH_KIND, IS_PUBLIC } from '../../src/http/public.decorator';
import { ApiKeyGuard } from '../../src/modules/developer-portal/api-key.guard';
import { CookieAuthGuard } from '../../src/modules/identity/cookie-auth.guard';
import { TestApp } from '../support/app';
import { createWorldApp } from '../support/factories';

interface Route {
  method: string;
  path: string;
  controller: string;
  handler: string;
  public: boolean;
  authKind: string | undefined;
  guards: unknown[];
}

function joinPath(...parts: string[]): string {
  return ('/' + parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')).replace(/\/+/g, '/');
}

/** Every route of every controller Nest registered, with its auth metadata (handler first, then class). */
function routesOf(t: TestApp): Route[] {
  const routes: Route[] = [];
  for (const module of t.app.nest.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const base: string | string[] = Reflect.getMetadata(PATH_METADATA, controller) ?? '';
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path: string | string[] | undefined = Reflect.getMetadata(PATH_METADATA, handler);
        const method: RequestMethod | undefined = Reflect.getMetadata(METHOD_METADATA, handler);
        if (path === undefined || method === undefined) continue;
        const read = <T>(key: string): T | undefined => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
        for (const b of [base].flat()) {
          for (const p of [path].flat()) {
            routes.push({
              method: RequestMethod[method],
              path: joinPath(b, p),
              controller: controller.name,
              handler: name,
              public: read<boolean>(IS_PUBLIC) === true,
              authKind: read<{ kind: string }>(AUTH_KIND)?.kind,
              guards: [...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []), ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? [])],
            });
          }
        }
      }
    }
  }
  return routes;
}

describe('every route has an auth decorator or @Public()', () => {
  let t: TestApp;
  let routes: Route[];

  beforeAll(async () => {
    t = await createWorldApp();
    routes = routesOf(t);
  });
  afterAll(async () => t.close());

  it('finds the routes (the walk itself works)', () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(expect.arrayContaining(['POST /auth/login', 'GET /api/me', 'POST /api/portal/keys', 'GET /api/games/:slug', 'GET /health/live']));
    expect(routes.length).toBeGreaterThan(30);
  });

  it('has no route with neither an auth decorator nor @Public()', () => {
    const bare = routes.filter((r) => !r.public && !r.authKind).map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`);
    expect(bare).toEqual([]);
  });

  it('backs every auth decorator with its guard', () => {
    const unguarded = routes
      .filter((r) => r.authKind)
      .filter((r) => !r.guards.includes(r.authKind === 'api-key' ? ApiKeyGuard : CookieAuthGuard))
      .map((r) => `${r.method} ${r.path}`);
    expect(unguarded).toEqual([]);
  });

  it('answers 401 UNAUTHENTICATED on every authenticated route when no credentials are sent', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.authKind)) {
      const path = route.path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      const verb = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      const res = await t.http()[verb](path).send({});
      if (res.status !== 401 || res.body.error !== 'UNAUTHENTICATED') failures.push(`${route.method} ${route.path}: ${res.status} ${res.body.error}`);
    }
    expect(failures).toEqual([]);
  });
});
