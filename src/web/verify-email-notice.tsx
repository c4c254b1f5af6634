/**
 * "Verify your e-mail" (CONTRACT §17.2 "Next steps are said"): what an unverified account sees on
 * `/me` and on the host page, with button "Resend e-mail" (`POST /auth/verify-email/resend`).
 * The button is run by the page script (src/web/pages/verify-email.ts); its outcome is said in the
 * notice's own status line (or alert), right under the button, so it is in view.
 */
export function VerifyEmailNotice(props: { email: string; hidden?: boolean }) {
  return (
    <section class="notice verify-email" id="verify-email" aria-labelledby="verify-email-heading" data-verify-email="" data-email={props.email} hidden={props.hidden}>
      <h2 id="verify-email-heading">Verify your e-mail</h2>
      <p>
        We sent a link to <strong class="verify-email-address">{props.email}</strong>. Open it to play games and spend your coins. No mail? Look in your
        spam folder, or have it sent again.
      </p>
      <button type="button" class="button primary" data-resend-verification="">
        Resend e-mail
      </button>
      <p class="verify-email-status" role="status" data-resend-status=""></p>
      <p class="form-error" role="alert" data-resend-error=""></p>
    </section>
  );
}
