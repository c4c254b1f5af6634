/** The developer portal's key page (`GET /developer/keys`, spec §5): create, list and revoke API keys. */
import { escapeHtml, standalonePageStart } from '../../http/html-page';

export type KeysPageState = 'unverified' | 'not-developer' | 'developer';

const SCRIPT = `
(function () {
  var status = document.getElementById('status');
  function show(text, tone) {
    status.textContent = text;
    if (tone) status.setAttribute('data-tone', tone); else status.removeAttribute('data-tone');
  }
  function call(method, path, payload) {
    var init = { method: method, credentials: 'same-origin', headers: {} };
    if (payload) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(payload); }
    return fetch(path, init).then(function (res) {
      if (res.status === 204) return { ok: true, body: null };
      return res.json().catch(function () { return {}; }).then(function (body) { return { ok: res.ok, body: body }; });
    });
  }
  function problem(body) {
    if (body && body.details && body.details.length) return body.details.map(function (d) { return d.problems.join(', '); }).join('. ');
    return (body && body.message) || 'That did not work. Please try again.';
  }
  function when(value) { return value ? new Date(value).toLocaleString() : '—'; }
  function cell(row, text) { var td = document.createElement('td'); td.textContent = text; row.appendChild(td); return td; }

  var become = document.getElementById('become');
  if (become) {
    become.addEventListener('submit', function (event) {
      event.preventDefault();
      call('POST', '/api/portal/developer', { displayName: become.displayName.value }).then(function (answer) {
        if (answer.ok) window.location.reload(); else show(problem(answer.body), 'error');
      }, function () { show('The arcade cannot be reached.', 'error'); });
    });
    return;
  }

  var table = document.getElementById('keys');
  if (!table) return;
  var body = table.querySelector('tbody');
  function load() {
    return call('GET', '/api/portal/keys').then(function (answer) {
      if (!answer.ok) { show(problem(answer.body), 'error'); return; }
      body.replaceChildren();
      answer.body.forEach(function (key) {
        var row = document.createElement('tr');
        row.setAttribute('data-key-id', key.id);
        cell(row, key.name);
        cell(row, key.kind);
        var prefix = cell(row, key.prefix + '…');
        prefix.className = 'mono';
        cell(row, when(key.createdAt));
        cell(row, when(key.lastUsedAt));
        var state = cell(row, key.revokedAt ? 'Revoked ' + when(key.revokedAt) : 'Active');
        if (!key.revokedAt) {
          var button = document.createElement('button');
          button.type = 'button';
          button.className = 'button secondary';
          button.textContent = 'Revoke';
          button.setAttribute('aria-label', 'Revoke key ' + key.name);
          button.addEventListener('click', function () {
            if (!window.confirm('Revoke "' + key.name + '"? Backends using it will get 401 at once.')) return;
            call('DELETE', '/api/portal/keys/' + encodeURIComponent(key.id)).then(function (answer) {
              if (answer.ok) { show('Key "' + key.name + '" revoked.', 'success'); load(); } else show(problem(answer.body), 'error');
            });
          });
          state.appendChild(document.createTextNode(' '));
          state.appendChild(button);
        }
        body.appendChild(row);
      });
      document.getElementById('empty').hidden = answer.body.length > 0;
    }, function () { show('The arcade cannot be reached.', 'error'); });
  }
  var create = document.getElementById('create');
  create.addEventListener('submit', function (event) {
    event.preventDefault();
    call('POST', '/api/portal/keys', { name: create.name.value, kind: create.kind.value }).then(function (answer) {
      if (!answer.ok) { show(problem(answer.body), 'error'); return; }
      var secret = document.getElementById('secret');
      document.getElementById('secret-key').textContent = answer.body.key;
      secret.hidden = false;
      secret.focus();
      show('Key "' + answer.body.name + '" created.', 'success');
      create.reset();
      load();
    }, function () { show('The arcade cannot be reached.', 'error'); });
  });
  load();
})();
`;

function layout(nonce: string, main: string): string {
  return `${standalonePageStart('API keys — Arcade developer portal', 'data-page="developer-keys"')}<main id="main" class="wrap">
  <h1>API keys</h1>
  <p id="status" class="message" role="status" aria-live="polite" data-testid="portal-status"></p>
${main}
</main>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>
`;
}

export function keysPage(options: { nonce: string; state: KeysPageState; displayName: string }): string {
  if (options.state === 'unverified') {
    return layout(options.nonce, `  <p>Verify your e-mail address first: open the link we sent you, then come back.</p>`);
  }
  if (options.state === 'not-developer') {
    return layout(
      options.nonce,
      `  <section class="panel" aria-labelledby="become-heading">
    <h2 id="become-heading">Become a developer</h2>
    <p>Developers publish games and use API keys to verify coin insertions and submit trusted scores from their own servers.</p>
    <form id="become" method="post" action="/api/portal/developer" novalidate>
      <p><label for="developer-name">Developer or studio name</label><br>
      <input id="developer-name" name="displayName" type="text" required maxlength="64" value="${escapeHtml(options.displayName)}"></p>
      <button type="submit" class="button primary">Become a developer</button>
    </form>
  </section>`,
    );
  }
  return layout(
    options.nonce,
    `  <p>Keys stay on your server, never in a game build. Send one as <code>Authorization: Bearer svc_live_…</code>. Live keys may submit trusted scores; test keys only read.</p>
  <div id="secret" class="panel" tabindex="-1" hidden aria-labelledby="secret-heading" role="region">
    <h2 id="secret-heading">Your new key</h2>
    <p>Copy it now: it is shown this once and cannot be shown again.</p>
    <p><code id="secret-key" class="mono" data-testid="new-key"></code></p>
  </div>
  <section class="panel" aria-labelledby="create-heading">
    <h2 id="create-heading">Create a key</h2>
    <form id="create" method="post" action="/api/portal/keys" novalidate>
      <p><label for="key-name">Name</label><br>
      <input id="key-name" name="name" type="text" required maxlength="40" placeholder="production backend"></p>
      <p><label for="key-kind">Kind</label><br>
      <select id="key-kind" name="kind"><option value="live">live — verify and submit trusted scores</option><option value="test">test — read only</option></select></p>
      <button type="submit" class="button primary">Create key</button>
    </form>
  </section>
  <section class="panel" aria-labelledby="list-heading">
    <h2 id="list-heading">Your keys</h2>
    <table id="keys" class="board" data-testid="keys">
      <thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Prefix</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
      <tbody></tbody>
    </table>
    <p id="empty" hidden>No keys yet.</p>
  </section>`,
  );
}
