/** `/developer/webhooks` (CONTRACT §21): add an endpoint (its secret shown once), and each endpoint's actions. */
import { ApiForm, Cell, Checkbox, DataTable, Hidden, LongText, Submit, TextField, When } from '../../http/pages/components';
import { ConfirmDialog } from '../../http/pages/confirm-dialog';
import type { DeveloperViewer } from '../../http/pages/page-auth';
import { DeveloperLayout } from '../developer-portal';
import { WEBHOOK_DESCRIPTION_MAX_LENGTH, WEBHOOK_ENDPOINT_LIMIT, WEBHOOK_EVENT_TYPES } from './webhook.rules';
import type { WebhookView } from './webhooks.service';

/** The region that shows a secret once: after "Add endpoint" and after "Rotate secret". */
function NewSecret() {
  return (
    <section id="new-secret" class="panel reveal" aria-labelledby="new-secret-heading" tabindex={-1} hidden>
      <h2 id="new-secret-heading">Your signing secret</h2>
      <p>Copy it now: it is shown this once. Your backend verifies each delivery's signature with it (Standard Webhooks).</p>
      <p>
        <code id="new-secret-value" class="secret" data-field="secret" data-testid="new-secret"></code>
      </p>
      <button type="button" class="button secondary" data-copy="new-secret-value">
        Copy secret
      </button>
      <span class="copy-status" role="status" data-copy-status=""></span>
    </section>
  );
}

export function WebhooksPage(props: { viewer: DeveloperViewer; webhooks: WebhookView[] }) {
  const full = props.webhooks.length >= WEBHOOK_ENDPOINT_LIMIT;
  return (
    <DeveloperLayout title="Webhooks" viewer={props.viewer} page="developer-webhooks" current="webhooks">
      <h1>Webhooks</h1>
      <p class="lead">
        Your backend hears what happened in your games: each event is sent as a signed <code>POST</code> (Standard Webhooks), retried for 3 days until
        your endpoint answers 2xx.
      </p>
      <NewSecret />
      <div class="panel">
        <ApiForm method="POST" action="/api/portal/webhooks" labelledBy="add-endpoint-heading" after="refresh" flash="Endpoint added." reveal="new-secret">
          <h2 id="add-endpoint-heading">Add endpoint</h2>
          <TextField id="webhook-url" label="Endpoint URL" name="url" type="url" required hint="An https:// address of your backend." spellcheck={false} />
          <fieldset class="field">
            <legend>Events</legend>
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox id={`event-${type.replace('.', '-')}`} label={type} name="events" value={type} checked />
            ))}
          </fieldset>
          <TextField id="webhook-description" label="Description" name="description" optional hint={`Optional, at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters.`} />
          <Submit>Add endpoint</Submit>
          {full ? <p class="hint">You have {WEBHOOK_ENDPOINT_LIMIT} endpoints, the most allowed: delete one to add another.</p> : null}
        </ApiForm>
      </div>
      <div data-region="" id="endpoints-region">
        <DataTable
          caption="Endpoints"
          testId="endpoints"
          columns={['URL', 'Events', 'Description', 'Status', 'Created', 'Actions']}
          rows={props.webhooks}
          empty="No endpoints yet."
          row={(w) => <EndpointRow webhook={w} />}
        />
      </div>
    </DeveloperLayout>
  );
}

function EndpointRow(props: { webhook: WebhookView }) {
  const w = props.webhook;
  const path = `/api/portal/webhooks/${encodeURIComponent(w.webhookId)}`;
  return (
    <tr data-webhook-id={w.webhookId}>
      <Cell label="URL" class="mono">
        <LongText text={w.url} />
      </Cell>
      <Cell label="Events">{w.events.length === WEBHOOK_EVENT_TYPES.length ? 'All events' : w.events.join(', ')}</Cell>
      <Cell label="Description">{w.description ?? ''}</Cell>
      <Cell label="Status">{w.enabled ? 'Enabled' : 'Disabled'}</Cell>
      <Cell label="Created">
        <When at={w.createdAt} />
      </Cell>
      <Cell label="Actions">
        <div class="row-action">
          <a href={`/developer/webhooks/${encodeURIComponent(w.webhookId)}`}>Deliveries</a>
          <ApiForm method="POST" action={`${path}/test`} label={`Send test event to ${w.url}`} after="refresh" flash="Test event sent.">
            <Submit variant="secondary">Send test event</Submit>
          </ApiForm>
          <ApiForm method="POST" action={`${path}/rotate-secret`} label={`Rotate the secret of ${w.url}`} after="refresh" flash="Secret rotated." reveal="new-secret">
            <Submit variant="secondary">Rotate secret</Submit>
          </ApiForm>
          <ApiForm method="PATCH" action={path} label={`${w.enabled ? 'Disable' : 'Enable'} ${w.url}`} after="refresh" flash={w.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.'}>
            <Hidden name="enabled" value={w.enabled ? 'false' : 'true'} json />
            <Submit variant="secondary">{w.enabled ? 'Disable' : 'Enable'}</Submit>
          </ApiForm>
          <ConfirmDialog
            id={`delete-${w.webhookId}`}
            opener="Delete"
            openerVariant="danger"
            title={`Delete the endpoint ${w.url}?`}
            confirm="Confirm delete"
            request={{ method: 'DELETE', action: path, after: 'refresh', flash: 'Endpoint deleted.' }}
          >
            <p>Nothing more is sent to it, and its pending deliveries stop. This cannot be undone.</p>
          </ConfirmDialog>
        </div>
      </Cell>
    </tr>
  );
}
