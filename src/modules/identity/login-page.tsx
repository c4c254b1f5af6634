/** The sign-in page (`GET /auth/login`, CONTRACT §17.1): form "Sign in" (with "Forgot password?", CONTRACT §20) and form "Sign up", calling the JSON endpoints. */
import { ApiForm, Submit, TextField } from '../../http/pages/components';
import { Layout } from '../../http/pages/layout';
import { TwoFactorCodeStep } from './two-factor-code-step';

const NOTICES = {
  '1': { tone: 'success', text: 'Your e-mail address is verified. Sign in to continue.' },
  '0': { tone: 'error', text: 'That verification link is invalid or has expired.' },
} as const;

export function LoginPage(props: { next: string; verified?: '0' | '1' }) {
  const notice = props.verified ? NOTICES[props.verified] : undefined;
  return (
    <Layout title="Sign in" viewer={null} page="login" path="/auth/login">
      <h1>Sign in or create an account</h1>
      {notice ? (
        <p class="notice" data-tone={notice.tone}>
          {notice.text}
        </p>
      ) : null}
      <div class="columns">
        <div class="panel">
          <ApiForm id="signin" method="POST" action="/auth/login" labelledBy="signin-heading" after="navigate" next={props.next}>
            <h2 id="signin-heading">Sign in</h2>
            <TextField id="signin-email" label="E-mail address" name="email" type="email" autocomplete="username" required />
            <TextField id="signin-password" label="Password" name="password" type="password" autocomplete="current-password" required />
            <Submit>Sign in</Submit>
          </ApiForm>
          <p data-password-step="">
            <a href="/auth/forgot">Forgot password?</a>
          </p>
          <TwoFactorCodeStep next={props.next} />
        </div>
        <div class="panel">
          <ApiForm id="signup" method="POST" action="/auth/signup" labelledBy="signup-heading" after="navigate" next={props.next}>
            <h2 id="signup-heading">Sign up</h2>
            <p class="lead">New here? An account lets you play, keep your coins and unlock achievements.</p>
            <TextField id="signup-name" label="Display name" name="displayName" autocomplete="nickname" required hint="1 to 32 characters, shown to other players." />
            <TextField id="signup-email" label="E-mail address" name="email" type="email" autocomplete="email" required hint="We send a link to verify it before you play." />
            <TextField id="signup-password" label="Password" name="password" type="password" autocomplete="new-password" required hint="8 to 128 characters." />
            <Submit>Create account</Submit>
          </ApiForm>
        </div>
      </div>
    </Layout>
  );
}
