/** `/developer/webhooks/{webhookId}` (CONTRACT §21): an endpoint's delivery log, newest first, with "Retry" on each. */
import { ApiForm, Cell, DataTable, LongText, Submit, When } from '../../http/pages/components';
import type { DeveloperViewer } from '../../http/pages/page-auth';
import { DeveloperLayout } from '../developer-portal';
import type { DeliveryView, WebhookView } from './webhooks.service';

const STATUS_TEXT = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' } as const;

export function WebhookDeliveriesPage(props: { viewer: DeveloperViewer; webhook: WebhookView; deliveries: DeliveryView[]; nextCursor: string | null }) {
  const w = props.webhook;
  return (
    <DeveloperLayout title="Webhook deliveries" viewer={props.viewer} page="developer-webhook-deliveries" current="webhooks">
      <p>
        <a href="/developer/webhooks">Back to webhooks</a>
      </p>
      <h1>Deliveries</h1>
      <p class="lead">
        To <LongText text={w.url} /> ({w.enabled ? 'enabled' : 'disabled'}). Each delivery is retried for 3 days until your endpoint answers 2xx; "Retry"
        makes one more attempt now.
      </p>
      <div data-region="" id="deliveries-region">
        <DataTable
          caption="Deliveries"
          testId="deliveries"
          columns={['Event', 'Status', 'Attempts', 'Last attempt', 'Answer', 'Next attempt', 'Created', 'Actions']}
          rows={props.deliveries}
          empty="No deliveries yet: send a test event from the Webhooks page."
          row={(d) => (
            <tr data-delivery-id={d.deliveryId}>
              <Cell label="Event">
                {d.type} <LongText text={d.eventId} short />
              </Cell>
              <Cell label="Status">{STATUS_TEXT[d.status]}</Cell>
              <Cell label="Attempts">{d.attempts}</Cell>
              <Cell label="Last attempt">
                <When at={d.lastAttemptAt} empty="not yet" />
              </Cell>
              <Cell label="Answer">{d.lastError ?? (d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : '')}</Cell>
              <Cell label="Next attempt">
                <When at={d.nextAttemptAt} empty="none" />
              </Cell>
              <Cell label="Created">
                <When at={d.createdAt} />
              </Cell>
              <Cell label="Actions">
                <ApiForm
                  method="POST"
                  action={`/api/portal/webhooks/${encodeURIComponent(w.webhookId)}/deliveries/${encodeURIComponent(d.deliveryId)}/retry`}
                  label={`Retry ${d.type} ${d.eventId}`}
                  after="refresh"
                  flash="Retrying now."
                >
                  <Submit variant="secondary">Retry</Submit>
                </ApiForm>
              </Cell>
            </tr>
          )}
        />
        {props.nextCursor ? (
          <p>
            <a href={`?cursor=${encodeURIComponent(props.nextCursor)}`}>Older deliveries</a>
          </p>
        ) : null}
      </div>
    </DeveloperLayout>
  );
}
