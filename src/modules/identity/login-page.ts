/** The login page (`GET /auth/login`): sign in and sign up, calling the JSON endpoints. */
import { escapeHtml, standalonePageStart } from '../../http/html-page';

/** Only a path on this origin may be the target after signing in; anything else goes home. */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2048) return '/';
  if (!next.startsWith('/') || next.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(next)) return '/';
  try {
    // A path that resolves off this origin (e.g. "/\t/evil.example") is refused.
    const base = 'http://same.invalid';
    const url = new URL(next, base);
    return url.origin === base ? url.pathname + url.search + url.hash : '/';
  } catch {
    return '/';
  }
}

const SCRIPT = `
(function () {
  var next = document.body.getAttribute('data-next') || '/';
  var status = document.getElementById('status');
  function show(text, isError) {
    status.textContent = text;
    status.setAttribute('data-tone', isError ? 'error' : 'success');
    if (isError) status.focus();
  }
  function messageOf(body, fallback) {
    if (body && body.error === 'RATE_LIMITED') return 'Too many attempts. Try again in ' + Math.max(1, Math.ceil((body.retryAfterMs || 1000) / 1000)) + ' seconds.';
    if (body && body.error === 'EMAIL_TAKEN') return 'An account with this e-mail address already exists. Sign in instead.';
    if (body && body.details && body.details.length) return body.details.map(function (d) { return d.problems.join(', '); }).join('. ');
    return (body && body.message) || fallback;
  }
  function submit(form, path, payload, done) {
    var button = form.querySelector('button[type=submit]');
    button.disabled = true;
    show('Please wait…', false);
    status.removeAttribute('data-tone');
    fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) })
      .then(function (res) { return res.json().catch(function () { return {}; }).then(function (body) { return { ok: res.ok, body: body }; }); })
      .then(function (answer) {
        button.disabled = false;
        if (answer.ok) done(answer.body); else show(messageOf(answer.body, 'That did not work. Please try again.'), true);
      })
      .catch(function () { button.disabled = false; show('The arcade cannot be reached. Check your connection and try again.', true); });
  }
  document.getElementById('signin').addEventListener('submit', function (event) {
    event.preventDefault();
    var f = event.target;
    submit(f, '/auth/login', { email: f.email.value, password: f.password.value }, function () {
      show('Signed in. Taking you back…', false);
      window.location.assign(next);
    });
  });
  document.getElementById('signup').addEventListener('submit', function (event) {
    event.preventDefault();
    var f = event.target;
    submit(f, '/auth/signup', { email: f.email.value, password: f.password.value, displayName: f.displayName.value }, function (body) {
      show('Account created and signed in. We sent a verification link to ' + body.user.email + ': open it before you play.', false);
      var link = document.getElementById('continue');
      link.hidden = false;
      link.focus();
    });
  });
})();
`;

export function loginPage(options: { next: string; nonce: string; verified?: '0' | '1' }): string {
  const notice =
    options.verified === '1'
      ? 'Your e-mail address is verified. Sign in to play.'
      : options.verified === '0'
        ? 'That verification link is invalid or has expired.'
        : '';
  return `${standalonePageStart('Sign in — Arcade', `data-page="login" data-next="${escapeHtml(options.next)}"`)}<main id="main" class="wrap">
  <h1>Sign in or create an account</h1>
  <p id="status" class="message"${options.verified === '0' ? ' data-tone="error"' : options.verified === '1' ? ' data-tone="success"' : ''} role="status" aria-live="polite" tabindex="-1" data-testid="login-status">${escapeHtml(notice)}</p>
  <a id="continue" class="button primary" href="${escapeHtml(options.next)}" hidden>Continue</a>
  <div class="columns">
    <section class="panel" aria-labelledby="signin-heading">
      <h2 id="signin-heading">Sign in</h2>
      <form id="signin" method="post" action="/auth/login" novalidate>
        <p><label for="signin-email">E-mail address</label><br>
        <input id="signin-email" name="email" type="email" autocomplete="username" required maxlength="254"></p>
        <p><label for="signin-password">Password</label><br>
        <input id="signin-password" name="password" type="password" autocomplete="current-password" required maxlength="128"></p>
        <button type="submit" class="button primary">Sign in</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="signup-heading">
      <h2 id="signup-heading">New here? Sign up</h2>
      <form id="signup" method="post" action="/auth/signup" novalidate>
        <p><label for="signup-name">Display name</label><br>
        <input id="signup-name" name="displayName" type="text" autocomplete="nickname" required maxlength="32"></p>
        <p><label for="signup-email">E-mail address</label><br>
        <input id="signup-email" name="email" type="email" autocomplete="email" required maxlength="254"></p>
        <p><label for="signup-password">Password</label><br>
        <input id="signup-password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="128" aria-describedby="signup-password-help">
        <small id="signup-password-help">8 to 128 characters.</small></p>
        <button type="submit" class="button primary">Create account</button>
      </form>
    </section>
  </div>
</main>
<script nonce="${options.nonce}">${SCRIPT}</script>
</body>
</html>
`;
}
