import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, TimeoutError, catchError, throwError, timeout } from 'rxjs';
import { ServiceUnavailableError } from '../errors/app-error';

/** No request is held longer than 10 seconds (CONTRACT §16.29): past 9 s it answers 503. */
@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  constructor(private readonly ms = 9000) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      timeout(this.ms),
      catchError((error: unknown) =>
        throwError(() => (error instanceof TimeoutError ? new ServiceUnavailableError('The request took too long; try again shortly.') : error)),
      ),
    );
  }
}
