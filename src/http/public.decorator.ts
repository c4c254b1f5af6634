import { SetMetadata } from '@nestjs/common';

/** Marks a route as deliberately unauthenticated; a test checks every route has auth or this. */
export const IS_PUBLIC = 'arcade:public';
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Set by the composite auth decorators (PlayerAuth, ApiKeyAuth, ...): the route checks credentials. */
export const AUTH_KIND = 'arcade:auth-kind';
