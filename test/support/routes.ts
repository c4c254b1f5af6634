import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { TestApp } from './app';

export interface RegisteredRoute {
  /** `GET`, `POST`, ... */
  method: string;
  /** In OpenAPI's spelling: `/api/games/{slug}`. */
  path: string;
  /** In Nest's (Express's) spelling: `/api/games/:slug`. */
  routePath: string;
  controller: string;
  handler: string;
  /** The handler takes a `@Body()`. */
  readsBody: boolean;
  /** A decorator's metadata on the route: the handler's, else the controller's. */
  metadata<T>(key: string): T | undefined;
}

function joinPath(...parts: string[]): string {
  return ('/' + parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')).replace(/\/+/g, '/');
}

/**
 * Every route of every controller the running Nest application registered, read from the
 * decorators' metadata through Nest's public ModulesContainer (no router internals).
 */
export function registeredRoutes(t: TestApp): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
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
        const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {};
        const readsBody = Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
        const metadata = <T>(key: string): T | undefined => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
        for (const b of [base].flat()) {
          for (const p of [path].flat()) {
            const routePath = joinPath(b, p);
            routes.push({
              method: RequestMethod[method],
              path: routePath.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
              routePath,
              controller: controller.name,
              handler: name,
              readsBody,
              metadata,
            });
          }
        }
      }
    }
  }
  return routes;
}
