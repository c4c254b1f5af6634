import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The request's id (the `X-Request-Id` of its answer, set by the request-logging middleware). */
export const RequestId = createParamDecorator((_data: unknown, context: ExecutionContext): string | null => {
  const request = context.switchToHttp().getRequest<{ id?: string }>();
  return request.id ?? null;
});
