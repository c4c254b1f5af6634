/**
 * What the mailed e-mail-change link answers when it cannot change the address (CONTRACT §20):
 * a page (§17 rules: header, plain words, a way on), never the API's JSON.
 */
import { Layout, Viewer } from '../../http/pages/layout';

/** 400: the link is unknown, used or expired. */
export function EmailLinkInvalidPage(props: { viewer: Viewer | null }) {
  return (
    <Layout title="Link invalid or expired" viewer={props.viewer} page="confirm-email" path="/auth/confirm-email">
      <h1>This link is invalid or expired</h1>
      <p class="notice" data-tone="error">
        The confirmation link is invalid, used or expired. Your e-mail address has not changed.
      </p>
      <p>
        A link works once, within 24 hours, and only the newest one works. Ask for a new link in <a href="/me/settings">Settings</a>.
      </p>
    </Layout>
  );
}

/** 409: another account took the address after the link was sent. */
export function EmailTakenMeanwhilePage(props: { viewer: Viewer | null }) {
  return (
    <Layout title="E-mail address taken" viewer={props.viewer} page="confirm-email" path="/auth/confirm-email">
      <h1>That e-mail address is taken</h1>
      <p class="notice" data-tone="error">
        Another account now uses this e-mail address. Your e-mail address has not changed.
      </p>
      <p>
        Choose another address in <a href="/me/settings">Settings</a>.
      </p>
    </Layout>
  );
}
