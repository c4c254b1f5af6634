/**
 * `/me/settings` (CONTRACT §20): "Download my data" (the JSON file of GET /api/me/export) and the
 * form "Delete account", which asks in a ConfirmDialog first (§17.2: destructive) and, once the
 * account is erased, lands on the home page signed out with a status message.
 */
import { ApiForm, Submit, TextField } from '../../http/pages/components';
import { ConfirmDialog } from '../../http/pages/confirm-dialog';

export function AccountData() {
  return (
    <>
      <section class="panel narrow" aria-labelledby="data-heading">
        <h2 id="data-heading">Your data</h2>
        <p>A file with everything this service keeps about your account: profile, wallet, purchases, scores, play and sign-in history.</p>
        <p>
          <a class="button secondary" href="/api/me/export" download="">
            Download my data
          </a>
        </p>
      </section>
      <section class="panel narrow" aria-labelledby="delete-heading">
        <ApiForm
          id="delete-account"
          method="POST"
          action="/api/me/delete"
          labelledBy="delete-heading"
          after="navigate"
          next="/"
          flash="Your account is deleted and you are signed out."
          confirm="delete-account-confirm"
        >
          <h2 id="delete-heading">Delete account</h2>
          <p>
            Your e-mail address, name, password and sign-ins are erased at once and any coins left in your wallet are forfeited. Your scores stay on the
            boards under their initials. A developer with a published game unpublishes it first.
          </p>
          <TextField id="delete-current-password" label="Current password" name="currentPassword" type="password" autocomplete="current-password" required />
          <TextField id="delete-confirm" label="Type DELETE to confirm" name="confirm" autocomplete="off" required />
          <Submit variant="danger">Delete account</Submit>
          {/* After the button, so Enter in a field presses "Delete account" (the form's first submit button), which asks. */}
          <ConfirmDialog id="delete-account-confirm" title="Delete your account?" confirm="Confirm deletion">
            <p>This cannot be undone: the account is erased at once and its remaining coins are forfeited.</p>
          </ConfirmDialog>
        </ApiForm>
      </section>
    </>
  );
}
