/** `/developer/keys` (spec §5, CONTRACT §17.1): create a key (shown once, with "Copy key"), list and revoke keys. */
import { ApiForm, Cell, DataTable, LongText, Select, Submit, TextField, When } from '../../http/pages/components';
import { ConfirmDialog } from '../../http/pages/confirm-dialog';
import type { DeveloperViewer } from '../../http/pages/page-auth';
import type { ApiKeyRow } from './api-key.repository';
import { DeveloperLayout } from './developer-layout';

export function KeysPage(props: { viewer: DeveloperViewer; keys: ApiKeyRow[] }) {
  return (
    <DeveloperLayout title="API keys" viewer={props.viewer} page="developer-keys" current="keys">
      <h1>API keys</h1>
      <p class="lead">
        Keys stay on your server, never in a game build. Send one as <code>Authorization: Bearer svc_live_…</code>. Live keys verify
        insertions and submit trusted scores; test keys only read.
      </p>
      <section id="new-key" class="panel reveal" aria-labelledby="new-key-heading" tabindex={-1} hidden>
        <h2 id="new-key-heading">Your new key</h2>
        <p>Copy it now: it is shown this once and cannot be shown again.</p>
        <p>
          <code id="new-key-value" class="secret" data-field="key" data-testid="new-key"></code>
        </p>
        <button type="button" class="button secondary" data-copy="new-key-value">
          Copy key
        </button>
        <span class="copy-status" role="status" data-copy-status=""></span>
      </section>
      <div class="panel">
        <ApiForm method="POST" action="/api/portal/keys" labelledBy="create-key-heading" after="refresh" flash="Key created." reveal="new-key">
          <h2 id="create-key-heading">Create key</h2>
          <TextField id="key-name" label="Name" name="name" required hint="1 to 40 characters, e.g. production backend." />
          <Select
            id="key-kind"
            label="Kind"
            name="kind"
            options={[
              { value: 'live', label: 'live' },
              { value: 'test', label: 'test' },
            ]}
            hint="live: verify insertions and submit trusted scores; test: read only."
          />
          <Submit>Create key</Submit>
        </ApiForm>
      </div>
      <div data-region="" id="keys-region">
        <DataTable
          caption="Your keys"
          testId="keys"
          columns={['Name', 'Kind', 'Prefix', 'Created', 'Last used', 'Status']}
          rows={props.keys}
          empty="No keys yet."
          row={(key) => (
            <tr data-key-id={key.id}>
              <Cell label="Name">{key.name}</Cell>
              <Cell label="Kind">{key.kind}</Cell>
              <Cell label="Prefix" class="mono">
                <LongText text={`${key.prefix}…`} />
              </Cell>
              <Cell label="Created">
                <When at={key.createdAt} />
              </Cell>
              <Cell label="Last used">
                <When at={key.lastUsedAt} empty="never" />
              </Cell>
              <Cell label="Status">
                {key.revokedAt ? (
                  <>
                    Revoked <When at={key.revokedAt} />
                  </>
                ) : (
                  <div class="row-action">
                    Active
                    <ConfirmDialog
                      id={`revoke-${key.id}`}
                      opener="Revoke"
                      title={`Revoke the key “${key.name}”?`}
                      confirm="Confirm revoke"
                      request={{ method: 'DELETE', action: `/api/portal/keys/${encodeURIComponent(key.id)}`, after: 'refresh', flash: `Key ${key.name} revoked.` }}
                    >
                      <p>
                        Requests that send it (<code>{`${key.prefix}…`}</code>) are refused from the moment you confirm, and it cannot be turned back on:
                        whatever uses it needs a new key.
                      </p>
                    </ConfirmDialog>
                  </div>
                )}
              </Cell>
            </tr>
          )}
        />
      </div>
    </DeveloperLayout>
  );
}
