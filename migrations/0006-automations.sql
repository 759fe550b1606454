-- Follow-up automations: outbound destinations (partner sync, analytics) with their webhook
-- deliveries, the agent's dial queue, texts to prospects and opt-outs. Every table keeps agent_id
-- first in its primary key.

-- A destination is a URL that receives a source's outbox events, signed the Standard Webhooks way.
ALTER TABLE sync_destinations ADD COLUMN kind text NOT NULL DEFAULT 'partner_sync' CHECK (kind IN ('partner_sync', 'analytics'));
ALTER TABLE sync_destinations ADD COLUMN secret text NOT NULL DEFAULT '';
ALTER TABLE sync_destinations ADD COLUMN events text[];
ALTER TABLE sync_destinations ADD COLUMN disabled_reason text;
ALTER TABLE sync_destinations ADD COLUMN last_success_at timestamptz;
ALTER TABLE sync_destinations ADD COLUMN failing_since timestamptz;
CREATE UNIQUE INDEX sync_destinations_destination_id_key ON sync_destinations (destination_id);

-- An outbox message is dispatched once: its deliveries, call task and text are created in one transaction.
ALTER TABLE outbox ADD COLUMN lead_id uuid;
ALTER TABLE outbox RENAME COLUMN delivered_at TO dispatched_at;
DROP INDEX outbox_pending_idx;
ALTER TABLE outbox DROP COLUMN attempts;
ALTER TABLE outbox DROP COLUMN last_error;
ALTER TABLE outbox DROP COLUMN available_at;
ALTER TABLE outbox DROP COLUMN dead;
CREATE INDEX outbox_undispatched_idx ON outbox (seq) WHERE dispatched_at IS NULL;

-- One event to one destination. Only the oldest pending delivery of a lead is due for a destination,
-- so a lead's events arrive in order; `sending` with a lease marks one a worker is sending right now.
CREATE TABLE webhook_deliveries (
  agent_id        uuid NOT NULL,
  delivery_id     uuid NOT NULL,
  message_id      uuid NOT NULL,
  destination_id  uuid NOT NULL,
  lead_id         uuid,
  seq             bigint NOT NULL,
  topic           text NOT NULL,
  body            jsonb NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'dead', 'canceled')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until     timestamptz,
  last_status     integer,
  last_error      text,
  delivered_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, delivery_id),
  UNIQUE (agent_id, message_id, destination_id)
);
CREATE UNIQUE INDEX webhook_deliveries_delivery_id_key ON webhook_deliveries (delivery_id);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'sending');
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (destination_id, lead_id, seq) WHERE status IN ('pending', 'sending');

-- Speed to lead: a call task for every new lead with a phone.
CREATE TABLE dial_tasks (
  agent_id    uuid NOT NULL,
  task_id     uuid NOT NULL,
  lead_id     uuid NOT NULL,
  message_id  uuid NOT NULL,
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, task_id),
  UNIQUE (agent_id, message_id)
);
CREATE INDEX dial_tasks_open_idx ON dial_tasks (agent_id, created_at) WHERE status = 'open';

-- Texts to prospects: scheduled at the next allowed minute of the prospect's calling hours.
CREATE TABLE sms_messages (
  agent_id     uuid NOT NULL,
  sms_id       uuid NOT NULL,
  lead_id      uuid NOT NULL,
  message_id   uuid NOT NULL,
  to_phone     text NOT NULL,
  body         text NOT NULL,
  status       text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'sending', 'sent', 'failed', 'suppressed')),
  send_at      timestamptz NOT NULL,
  lease_until  timestamptz,
  attempts     integer NOT NULL DEFAULT 0,
  provider     text,
  provider_id  text,
  error        text,
  sent_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, sms_id),
  UNIQUE (agent_id, message_id)
);
CREATE INDEX sms_messages_due_idx ON sms_messages (send_at) WHERE status IN ('scheduled', 'sending');
CREATE INDEX sms_messages_phone_idx ON sms_messages (agent_id, to_phone, created_at);

-- A prospect who answered STOP gets no text from that agent again, whatever later deliveries say.
CREATE TABLE sms_opt_outs (
  agent_id       uuid NOT NULL,
  phone          text NOT NULL,
  keyword        text NOT NULL,
  opted_out_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, phone)
);

ALTER TABLE agents ADD COLUMN sms_template text;

-- What a live delivery would have triggered, shown with a Listen sample.
ALTER TABLE listen_samples ADD COLUMN would_fire jsonb;
