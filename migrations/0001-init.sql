-- Leadgate schema. Every table carries agent_id and every primary key starts with it, so the
-- schema can be distributed by agent (Citus) later without redesign.

CREATE TABLE agents (
  agent_id    uuid PRIMARY KEY,
  name        text NOT NULL,
  timezone    text NOT NULL DEFAULT 'America/New_York',
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sources (
  agent_id             uuid NOT NULL REFERENCES agents (agent_id),
  source_id            uuid NOT NULL,
  name                 text NOT NULL,
  token_hash           text NOT NULL,          -- SHA-256 hex of the token; the token itself is never stored
  active               boolean NOT NULL DEFAULT true,
  signing_key          text,                   -- optional booking-scheduler webhook signing key
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, source_id)
);
-- Token lookup is by hash alone: under Citus this table becomes a reference table.
CREATE UNIQUE INDEX sources_token_hash_key ON sources (token_hash);
CREATE UNIQUE INDEX sources_source_id_key ON sources (source_id);

-- Outbound partner-sync destinations of a source (auto_sync_enabled = at least one active).
CREATE TABLE sync_destinations (
  agent_id        uuid NOT NULL,
  destination_id  uuid NOT NULL,
  source_id       uuid NOT NULL,
  url             text NOT NULL,
  active          boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, destination_id),
  FOREIGN KEY (agent_id, source_id) REFERENCES sources (agent_id, source_id)
);
CREATE INDEX sync_destinations_source_idx ON sync_destinations (agent_id, source_id) WHERE active;

CREATE TABLE leads (
  agent_id         uuid NOT NULL REFERENCES agents (agent_id),
  lead_id          uuid NOT NULL,
  source_id        uuid NOT NULL,
  status           text NOT NULL CHECK (status IN ('New', 'Scheduled', 'Canceled')),
  name             text NOT NULL,
  first_name       text,
  last_name        text,
  phone            text,
  email            text,
  campaign_name    text,
  idempotency_key  text,
  fields           jsonb NOT NULL DEFAULT '{}'::jsonb,  -- every other canonical field, by its spec name
  custom_fields    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, lead_id),
  FOREIGN KEY (agent_id, source_id) REFERENCES sources (agent_id, source_id)
);
CREATE UNIQUE INDEX leads_lead_id_key ON leads (lead_id);
CREATE INDEX leads_agent_created_idx ON leads (agent_id, created_at DESC, lead_id DESC);
CREATE INDEX leads_agent_phone_idx ON leads (agent_id, phone) WHERE phone IS NOT NULL;
CREATE INDEX leads_agent_email_idx ON leads (agent_id, email) WHERE email IS NOT NULL;

CREATE TABLE appointments (
  agent_id              uuid NOT NULL,
  appointment_id        uuid NOT NULL,
  lead_id               uuid NOT NULL,
  scheduled_at          timestamptz NOT NULL,
  appointment_timezone  text NOT NULL,
  schedule_type         text NOT NULL DEFAULT 'appointment' CHECK (schedule_type IN ('appointment', 'follow_up')),
  status                text NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'rescheduled', 'canceled', 'no_show')),
  setter_dialer_name    text,
  join_url              text,
  cancel_url            text,
  reschedule_url        text,
  external_id           text,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, appointment_id),
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id)
);
CREATE INDEX appointments_agenda_idx ON appointments (agent_id, scheduled_at);
CREATE INDEX appointments_lead_idx ON appointments (agent_id, lead_id);

CREATE TABLE lead_history (
  agent_id    uuid NOT NULL,
  history_id  uuid NOT NULL,
  lead_id     uuid NOT NULL,
  source_id   uuid,
  event       text NOT NULL,
  changes     jsonb NOT NULL DEFAULT '{}'::jsonb,
  details     jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (agent_id, history_id),
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id)
);
CREATE INDEX lead_history_lead_idx ON lead_history (agent_id, lead_id, created_at);

CREATE TABLE idempotency_keys (
  agent_id    uuid NOT NULL,
  source_id   uuid NOT NULL,
  key         text NOT NULL,
  lead_id     uuid,
  contact     jsonb NOT NULL,   -- normalized name, phone, email of the first delivery
  response    jsonb,            -- the success response to replay; set before commit
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (agent_id, source_id, key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);

CREATE TABLE listen_samples (
  agent_id       uuid NOT NULL,
  sample_id      uuid NOT NULL,
  source_id      uuid NOT NULL,
  received_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  body           jsonb NOT NULL,
  mapped         jsonb NOT NULL DEFAULT '{}'::jsonb,
  custom_fields  jsonb NOT NULL DEFAULT '{}'::jsonb,
  warnings       jsonb NOT NULL DEFAULT '[]'::jsonb,
  error_code     text,
  PRIMARY KEY (agent_id, sample_id),
  FOREIGN KEY (agent_id, source_id) REFERENCES sources (agent_id, source_id)
);
CREATE INDEX listen_samples_source_idx ON listen_samples (agent_id, source_id, received_at DESC);

-- Transactional outbox: side effects (SMS/call automations, partner sync, analytics) are
-- enqueued in the delivery's transaction and sent by a dispatcher (FOR UPDATE SKIP LOCKED).
CREATE TABLE outbox (
  agent_id      uuid NOT NULL,
  message_id    uuid NOT NULL,
  topic         text NOT NULL,
  payload       jsonb NOT NULL,
  attempts      integer NOT NULL DEFAULT 0,
  last_error    text,
  available_at  timestamptz NOT NULL DEFAULT now(),
  created_at    timestamptz NOT NULL DEFAULT now(),
  delivered_at  timestamptz,
  dead          boolean NOT NULL DEFAULT false,
  PRIMARY KEY (agent_id, message_id)
);
CREATE INDEX outbox_pending_idx ON outbox (available_at) WHERE delivered_at IS NULL AND NOT dead;
