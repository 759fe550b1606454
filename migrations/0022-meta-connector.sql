-- Meta Lead Ads and Google Ads lead forms connected straight to a source (decision 0061).
-- The Meta secrets are sealed (AES-256-GCM under the installation's SECRETS_KEY, which the database
-- never holds: src/sources/secrets.ts); the verify token and the Google key are kept as SHA-256
-- hex, compared by hash. A change to any of them bumps the source's revision (0009).
ALTER TABLE sources
  ADD COLUMN meta_page_access_token text,
  ADD COLUMN meta_app_secret text,
  ADD COLUMN meta_verify_token_hash text,
  -- A Listen source: the leads it fetches are stored as Listen samples, never written as leads.
  ADD COLUMN meta_listen boolean NOT NULL DEFAULT false,
  -- When the Graph API last said the page access token is no good (error 190); null: all is well.
  ADD COLUMN meta_reconnect_since timestamptz,
  ADD COLUMN google_key_hash text;

-- One job per lead Meta announced (its leadgen_id), per source: the fetch from the Graph API and
-- the lead it became. The key makes a repeated envelope a no-op; the worker claims due jobs with
-- FOR UPDATE SKIP LOCKED and a lease, as the dispatcher does its webhook deliveries.
CREATE TABLE meta_leads (
  agent_id         uuid NOT NULL,
  source_id        uuid NOT NULL,
  leadgen_id       text NOT NULL,
  form_id          text,
  ad_id            text,
  page_id          text,
  created_time     text,
  status           text NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'fetching', 'done', 'sampled', 'refused', 'stopped', 'dead')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  lease_until      timestamptz,
  last_error       text,
  lead_id          uuid,
  received_at      timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, source_id, leadgen_id),
  FOREIGN KEY (agent_id, source_id) REFERENCES sources (agent_id, source_id)
);
CREATE INDEX meta_leads_due_idx ON meta_leads (next_attempt_at) WHERE status IN ('pending', 'fetching');
CREATE INDEX meta_leads_stopped_idx ON meta_leads (agent_id, source_id) WHERE status = 'stopped';
