/**
 * The code step of signing in with two-factor on (CONTRACT §20), on the sign-in page and after a
 * password reset: hidden until the password step answers `{ twoFactorRequired: true, challenge }`; the page script (src/web/pages/two-factor.ts)
 * then shows it with the challenge filled in. "Code" takes a TOTP or a recovery code; "Verify"
 * signs in and goes on to `next`.
 */
import { ApiForm, Submit, TextField } from '../../http/pages/components';

export function TwoFactorCodeStep(props: { next: string }) {
  return (
    <div id="two-factor-step" tabindex={-1} hidden>
      <ApiForm id="signin-code" method="POST" action="/auth/login/2fa" labelledBy="signin-code-heading" after="navigate" next={props.next}>
        <h2 id="signin-code-heading">Enter your code</h2>
        <p>Your account has two-factor authentication on: enter a code to finish signing in.</p>
        <input type="hidden" name="challenge" value="" data-two-factor-challenge="" />
        <TextField id="signin-code-value" label="Code" name="code" autocomplete="one-time-code" required hint="The 6 digits your authenticator app shows now, or one of your recovery codes." />
        <Submit>Verify</Submit>
      </ApiForm>
      <p>
        <a href={`/auth/login?next=${encodeURIComponent(props.next)}`}>Start again</a>
      </p>
    </div>
  );
}
