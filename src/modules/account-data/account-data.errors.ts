import { AppError } from '../../errors/app-error';

/** POST /api/me/delete of a developer with a published game, or of an admin (CONTRACT §20). */
export class AccountNotErasableError extends AppError {
  constructor(why: 'published' | 'admin') {
    super(
      'CONFLICT',
      why === 'admin'
        ? 'An admin account is not deleted this way.'
        : 'This account has a published game: unpublish every game first.',
    );
  }
}
