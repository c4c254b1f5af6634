import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Developer webhooks (CONTRACT §21, issue 31): a developer's endpoints, the events recorded for
 * them, and one delivery per event and endpoint.
 *
 * The outbox is `webhook_events`: a writer inserts one row in the transaction of the change it
 * reports (riding the change's own statement where it is on the hot path), and only when the
 * developer has an enabled endpoint subscribed to the type (a ping names its endpoint). The row's
 * trigger fans it out, in the same statement, into a delivery per enabled, subscribed endpoint and
 * a graphile-worker job per delivery (`graphile_worker.add_job`, whose schema the service installs
 * before it starts: src/database/job-queue.ts). A rollback leaves no event, no delivery, no job; a
 * commit wakes a worker (NOTIFY). PL/pgSQL resolves `graphile_worker.add_job` when the trigger
 * runs, so this migration does not need the job queue's schema.
 *
 * Endpoints are never deleted: DELETE marks `deleted_at` (its delivery log stays behind, nothing
 * more is sent, it no longer counts towards the 5). The secret is kept as given (`whsec_` + base64):
 * signing needs the raw key, so a hash would not do (docs/webhooks.md, "The secret").
 */
export class AddWebhooks1797000000000 implements MigrationInterface {
  name = 'AddWebhooks1797000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        last_success_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        CONSTRAINT webhook_endpoints_developer_id_fkey FOREIGN KEY (developer_id) REFERENCES developers(id),
        CONSTRAINT webhook_endpoints_url_length CHECK (char_length(url) BETWEEN 1 AND 2000),
        CONSTRAINT webhook_endpoints_description_length CHECK (char_length(description) <= 100)
      );
      CREATE INDEX webhook_endpoints_developer_idx ON webhook_endpoints (developer_id);

      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        developer_id uuid NOT NULL,
        type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        data jsonb NOT NULL,
        endpoint_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_events_developer_id_fkey FOREIGN KEY (developer_id) REFERENCES developers(id),
        CONSTRAINT webhook_events_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints(id)
      );

      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        event_id uuid NOT NULL,
        endpoint_id uuid NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES webhook_events(id),
        CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints(id),
        CONSTRAINT webhook_deliveries_event_endpoint_key UNIQUE (event_id, endpoint_id),
        CONSTRAINT webhook_deliveries_status CHECK (status IN ('pending', 'succeeded', 'failed'))
      );
      CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at, id);

      -- An ISO date-time with milliseconds and Z, as the API writes dates (JSON of a JavaScript Date).
      CREATE FUNCTION webhook_time(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

      CREATE FUNCTION webhook_events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        delivery record;
      BEGIN
        FOR delivery IN
          INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
          SELECT NEW.id, e.id, now() FROM webhook_endpoints e
           WHERE e.deleted_at IS NULL
             AND CASE WHEN NEW.endpoint_id IS NOT NULL THEN e.id = NEW.endpoint_id
                      ELSE e.developer_id = NEW.developer_id AND e.enabled AND NEW.type = ANY (e.events) END
          RETURNING id
        LOOP
          PERFORM graphile_worker.add_job('webhook_delivery', json_build_object('deliveryId', delivery.id),
            job_key => 'webhook_delivery:' || delivery.id, max_attempts => 25);
        END LOOP;
        RETURN NULL;
      END $$;
      CREATE TRIGGER webhook_events_fan_out AFTER INSERT ON webhook_events
        FOR EACH ROW EXECUTE FUNCTION webhook_events_fan_out();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE webhook_deliveries;
      DROP TRIGGER webhook_events_fan_out ON webhook_events;
      DROP TABLE webhook_events;
      DROP TABLE webhook_endpoints;
      DROP FUNCTION webhook_events_fan_out();
      DROP FUNCTION webhook_time(timestamptz);
    `);
  }
}
