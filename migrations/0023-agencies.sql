-- Agencies: producers (agents) who share lead sources. A lead from an agency's source is routed,
-- inside its delivery's transaction, to one producer and stored as that producer's lead, so the
-- producer's queue, texts, keys and console work as they do for an agent's own sources.
CREATE TABLE agencies (
  agency_id          uuid PRIMARY KEY,
  name               text NOT NULL,
  -- The producer who takes what nobody else may: no state, nobody licensed, everyone capped.
  fallback_agent_id  uuid NOT NULL REFERENCES agents (agent_id),
  timezone           text NOT NULL,
  -- A lead routed by rotation and not worked within this many calling-hours minutes moves on.
  claim_minutes      integer CHECK (claim_minutes BETWEEN 1 AND 10080),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agencies_fallback_idx ON agencies (fallback_agent_id);

-- A producer of an agency. `credit` is the rotation's memory: what the producer is owed of its share
-- (weighted fair rotation, src/routing/rotation.ts); `assigned_count` counts the leads it was given
-- on `assigned_day`, the agency's calendar day, for the daily cap.
CREATE TABLE agency_members (
  agency_id        uuid NOT NULL REFERENCES agencies (agency_id),
  agent_id         uuid NOT NULL REFERENCES agents (agent_id),
  licensed_states  text[] NOT NULL,
  weight           integer NOT NULL DEFAULT 1 CHECK (weight >= 1),
  daily_cap        integer CHECK (daily_cap >= 1),
  active           boolean NOT NULL DEFAULT true,
  credit           double precision NOT NULL DEFAULT 0,
  assigned_day     date,
  assigned_count   integer NOT NULL DEFAULT 0,
  joined_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (agency_id, agent_id)
);
CREATE INDEX agency_members_agent_idx ON agency_members (agent_id);

-- An agency's source is listed under the producer who was its fallback when it was made (its
-- samples, keys and event log stay there); its leads belong to the producers they are routed to.
ALTER TABLE sources ADD COLUMN agency_id uuid REFERENCES agencies (agency_id);
ALTER TABLE leads DROP CONSTRAINT leads_agent_id_source_id_fkey;
ALTER TABLE leads ADD CONSTRAINT leads_source_id_fkey FOREIGN KEY (source_id) REFERENCES sources (source_id);
CREATE INDEX sync_destinations_source_id_idx ON sync_destinations (source_id) WHERE active;

-- How a lead of an agency came to its producer ({rule, agency_id, state, skipped, tried}), and when
-- the claim timer looks at it again (null: never).
ALTER TABLE leads ADD COLUMN routing jsonb;
ALTER TABLE leads ALTER COLUMN routing SET STATISTICS 0;
ALTER TABLE leads ADD COLUMN claim_due_at timestamptz;
CREATE INDEX leads_claim_due_idx ON leads (claim_due_at) WHERE claim_due_at IS NOT NULL;

-- A Listen sample of an agency's source says who the lead would have gone to, and by which rule.
ALTER TABLE listen_samples ADD COLUMN would_route jsonb;
ALTER TABLE listen_samples ALTER COLUMN would_route SET STATISTICS 0;

-- A lead moves between producers by its key: what hangs on it moves with it.
ALTER TABLE appointments DROP CONSTRAINT appointments_agent_id_lead_id_fkey;
ALTER TABLE appointments ADD CONSTRAINT appointments_agent_id_lead_id_fkey
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE;
ALTER TABLE lead_history DROP CONSTRAINT lead_history_agent_id_lead_id_fkey;
ALTER TABLE lead_history ADD CONSTRAINT lead_history_agent_id_lead_id_fkey
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE;
ALTER TABLE lead_contacts DROP CONSTRAINT lead_contacts_agent_id_lead_id_fkey;
ALTER TABLE lead_contacts ADD CONSTRAINT lead_contacts_agent_id_lead_id_fkey
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE
  DEFERRABLE INITIALLY DEFERRED;

-- Every unique constraint of a table distributed by tenant includes the tenant (docs/scaling.md):
-- the ids the gateway makes (UUIDv7, 74 random bits) are unique anyway, and are found by plain indexes.
DROP INDEX leads_lead_id_key;
CREATE INDEX leads_lead_id_idx ON leads (lead_id);
DROP INDEX webhook_deliveries_delivery_id_key;
CREATE INDEX webhook_deliveries_delivery_id_idx ON webhook_deliveries (delivery_id);
