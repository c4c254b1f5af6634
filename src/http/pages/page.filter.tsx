import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AllExceptionsFilter, toFlatError } from '../../errors/all-exceptions.filter';
import { ComposedDeclarations, DECLARATIONS } from '../../registry/compose';
import { NotFoundPage, sendPage, TwoFactorRequiredPage, Viewer } from './layout';
import { PageNotFound, PageTwoFactorRequired, SignInRequired, signInPath } from './page.errors';

/**
 * Errors of page routes: "sign in first" becomes a redirect to the sign-in page that comes back,
 * anything that means "not found" (unknown or foreign resource, missing role) the HTML 404 page;
 * everything else leaves as the API's flat error, through the one exception filter.
 */
@Catch()
export class PageFilter implements ExceptionFilter {
  private readonly api: AllExceptionsFilter;

  constructor(@Inject(DECLARATIONS) private readonly declarations: ComposedDeclarations) {
    this.api = new AllExceptionsFilter(declarations.errors);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request & { viewer?: Viewer | null }>();
    const response = http.getResponse<Response>();
    if (response.headersSent) return this.api.catch(exception, host);
    if (exception instanceof SignInRequired) {
      response.setHeader('Cache-Control', 'no-store');
      return response.redirect(302, signInPath(request.originalUrl));
    }
    if (exception instanceof PageTwoFactorRequired) {
      return sendPage(response, <TwoFactorRequiredPage viewer={request.viewer ?? null} path={request.originalUrl} />, { status: 403 });
    }
    if (exception instanceof PageNotFound || toFlatError(exception, this.declarations.errors).status === 404) {
      return sendPage(response, <NotFoundPage viewer={request.viewer ?? null} path={request.originalUrl} />, { status: 404 });
    }
    this.api.catch(exception, host);
  }
}
