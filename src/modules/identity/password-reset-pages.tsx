/**
 * The password-reset pages (CONTRACT §20): `/auth/forgot` (form "Reset password", then "Check
 * your e-mail") and `/auth/reset-password?token=` (form "Set a new password", then signed in on
 * /me), calling POST /auth/password-reset and POST /auth/reset-password.
 */
import { ApiForm, Hidden, Submit, TextField } from '../../http/pages/components';
import { TwoFactorCodeStep } from './two-factor-code-step';
import { Layout, Viewer } from '../../http/pages/layout';

export function ForgotPasswordPage(props: { viewer: Viewer | null; sent: boolean }) {
  if (props.sent) {
    return (
      <Layout title="Check your e-mail" viewer={props.viewer} page="forgot" path="/auth/forgot">
        <h1>
          Check your <span class="nowrap">e-mail</span>
        </h1>
        <p class="lead">If an account has that address, we sent it a link to set a new password. The link works once, within 60 minutes.</p>
        <p>
          No mail? Look in your spam folder, or <a href="/auth/forgot">ask for another link</a>.
        </p>
        <p>
          <a href="/auth/login">Back to sign in</a>
        </p>
      </Layout>
    );
  }
  return (
    <Layout title="Reset password" viewer={props.viewer} page="forgot" path="/auth/forgot">
      <h1>Forgot your password?</h1>
      <div class="panel narrow">
        <ApiForm id="forgot" method="POST" action="/auth/password-reset" labelledBy="forgot-heading" after="navigate" next="/auth/forgot?sent=1">
          <h2 id="forgot-heading">Reset password</h2>
          <p class="lead">We mail you a link to set a new one.</p>
          <TextField id="forgot-email" label="E-mail address" name="email" type="email" autocomplete="email" required />
          <Submit>Send link</Submit>
        </ApiForm>
        <p>
          <a href="/auth/login">Back to sign in</a>
        </p>
      </div>
    </Layout>
  );
}

export function ResetPasswordPage(props: { viewer: Viewer | null; token: string }) {
  if (!props.token) {
    return (
      <Layout title="Set a new password" viewer={props.viewer} page="reset-password" path="/auth/reset-password">
        <h1>Reset your password</h1>
        <p class="notice" data-tone="error">
          This page needs the link from the reset mail.
        </p>
        <p>
          <a href="/auth/forgot">Ask for a link</a>
        </p>
      </Layout>
    );
  }
  return (
    <Layout title="Set a new password" viewer={props.viewer} page="reset-password" path="/auth/reset-password">
      <h1>Reset your password</h1>
      <div class="panel narrow">
        <ApiForm id="reset-password" method="POST" action="/auth/reset-password" labelledBy="reset-heading" after="navigate" next="/me">
          <h2 id="reset-heading">Set a new password</h2>
          <p class="lead">Every other device signed in to your account is signed out.</p>
          <Hidden name="token" value={props.token} />
          <TextField id="reset-password-new" label="New password" name="password" type="password" autocomplete="new-password" required hint="8 to 128 characters." />
          <Submit>Set password</Submit>
        </ApiForm>
        <p data-password-step="">
          Link used or expired? <a href="/auth/forgot">Ask for a new link</a>.
        </p>
        <TwoFactorCodeStep next="/me" />
      </div>
    </Layout>
  );
}
