/**
 * `/me/settings`, form "Change e-mail" (CONTRACT §20): a new address and the current password; a
 * link goes to the new address and the current one stays the login until it is followed. The
 * change waiting for its link is shown (a region the form refreshes).
 */
import { ApiForm, Submit, TextField, When } from '../../http/pages/components';
import type { PendingEmailChange } from './email-change.repository';

export function ChangeEmail(props: { email: string; pending: PendingEmailChange | null }) {
  return (
    <section class="panel narrow" aria-labelledby="email-heading">
      <ApiForm
        id="change-email"
        method="POST"
        action="/api/me/email"
        labelledBy="email-heading"
        after="refresh"
        flash="We sent a confirmation link to the new address. Your current e-mail stays your sign-in until the link is followed."
      >
        <h2 id="email-heading">Change e-mail</h2>
        <p>
          You sign in with <strong>{props.email}</strong>. We mail a link to the new address; the change is made when
          it is followed.
        </p>
        <div data-region="" id="email-pending-region">
          {props.pending ? (
            <p class="notice">
              Waiting for confirmation: <strong>{props.pending.new_email}</strong>. The link we sent there works until{' '}
              <When at={props.pending.expires_at} />.
            </p>
          ) : null}
        </div>
        <TextField id="new-email" label="New e-mail address" name="email" type="email" autocomplete="email" spellcheck={false} required />
        <TextField id="email-current-password" label="Current password" name="currentPassword" type="password" autocomplete="current-password" required />
        <Submit>Send confirmation</Submit>
      </ApiForm>
    </section>
  );
}
