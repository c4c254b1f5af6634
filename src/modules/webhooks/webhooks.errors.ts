import { AppError } from '../../errors/app-error';
import { WEBHOOK_ENDPOINT_LIMIT } from './webhook.rules';

export class WebhookLimitReachedError extends AppError {
  constructor() {
    super('WEBHOOK_LIMIT_REACHED', `A developer has at most ${WEBHOOK_ENDPOINT_LIMIT} webhook endpoints, disabled ones included; delete one first.`);
  }
}
