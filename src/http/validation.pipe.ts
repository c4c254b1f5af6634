import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidRequestError } from '../errors/app-error';

export interface FieldProblem {
  field: string;
  problems: string[];
}

function flatten(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, problems: Object.values(error.constraints) }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * The one validation pipe: unknown properties are refused, values are transformed to the DTO's
 * types, and every failure is 400 INVALID_REQUEST with `details` naming the fields.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => {
        const details = flatten(errors);
        const message = details.length
          ? details.map((d) => `${d.field}: ${d.problems.join(', ')}`).join('; ')
          : 'The request is invalid.';
        return new InvalidRequestError(message, details);
      },
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new InvalidRequestError('The request body must be a JSON object.');
      }
    }
    return super.transform(value, metadata);
  }
}
