/**
 * `/me/settings`, section "Two-factor authentication" (CONTRACT §20). Off: "Set up two-factor"
 * asks the API for a new secret, then the page script (src/web/pages/two-factor.ts) shows it as a
 * QR code and as text with the "Code" field and "Turn on"; turning it on shows the 10 recovery
 * codes this once. On: "Turn off" with the current password and a code. The secret is never in
 * this page's HTML: only setup's answer carries it.
 */
import { ApiForm, Submit, TextField } from '../../http/pages/components';

function SetUp() {
  return (
    <>
      <p id="two-factor-status">
        Two-factor authentication is <strong>off</strong>. With it on, signing in asks for a code from an authenticator app on your
        phone after your password.
      </p>
      <form id="two-factor-setup" class="api-form" method="post" action="/api/me/2fa/setup" novalidate aria-label="Set up two-factor" data-two-factor="setup">
        <button type="submit" class="button primary">
          Set up two-factor
        </button>
        <p class="form-error" role="alert" data-form-error=""></p>
      </form>
      <div id="two-factor-enrol" class="reveal-step" tabindex={-1} hidden>
        <h3 id="two-factor-scan-heading">Scan the code</h3>
        <ol class="steps">
          <li>Open an authenticator app on your phone and scan this QR code, or type in the key below it.</li>
          <li>Enter the 6-digit code the app shows, then choose Turn on.</li>
        </ol>
        <div class="qr" role="img" aria-label="QR code for your authenticator app" data-two-factor-qr=""></div>
        <p class="secret-label" id="two-factor-secret-label">Key (if you cannot scan):</p>
        <p>
          <code class="secret" aria-labelledby="two-factor-secret-label" data-two-factor-secret=""></code>
        </p>
        <form id="two-factor-enable" class="api-form" method="post" action="/api/me/2fa/enable" novalidate aria-labelledby="two-factor-scan-heading" data-two-factor="enable">
          <TextField id="two-factor-code" label="Code" name="code" autocomplete="one-time-code" required hint="The 6 digits your app shows now." />
          <Submit>Turn on</Submit>
          <p class="form-error" role="alert" data-form-error=""></p>
        </form>
      </div>
      <div id="two-factor-recovery" class="reveal" tabindex={-1} hidden>
        <h3>Two-factor authentication is on: save your recovery codes</h3>
        <p>
          Keep these codes somewhere safe, such as a password manager or on paper. If you lose your phone, each one signs you in once
          instead of a code. They are shown only this once.
        </p>
        <ul class="recovery-codes" id="two-factor-recovery-codes" data-two-factor-codes=""></ul>
        <button type="button" class="button secondary" data-copy="two-factor-recovery-codes">
          Copy codes
        </button>
        <span class="copy-status" role="status" data-copy-status=""></span>
        <p>
          <a class="button primary" href="/me/settings">
            I have saved them
          </a>
        </p>
      </div>
    </>
  );
}

function TurnOff() {
  return (
    <ApiForm id="two-factor-disable" method="POST" action="/api/me/2fa/disable" label="Turn off two-factor" flash="Two-factor authentication is off.">
      <p>
        Two-factor authentication is <strong>on</strong>: signing in asks for a code from your authenticator app after your password.
      </p>
      <TextField id="two-factor-off-password" label="Current password" name="currentPassword" type="password" autocomplete="current-password" required />
      <TextField id="two-factor-off-code" label="Code" name="code" autocomplete="one-time-code" required hint="The 6 digits your app shows now, or one of your recovery codes." />
      <Submit variant="danger">Turn off</Submit>
    </ApiForm>
  );
}

export function TwoFactorSettings(props: { on: boolean }) {
  return (
    <section class="panel narrow" id="two-factor" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor authentication</h2>
      {props.on ? <TurnOff /> : <SetUp />}
    </section>
  );
}
