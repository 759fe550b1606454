-- A source's terms (docs/admin-api.md): what a lead costs, how long the vendor takes returns, how
-- many days a repeat contact is not billed again, which leads it may deliver and how many. A change
-- bumps the source's revision (0009), so gateway processes pick it up.
ALTER TABLE sources ADD COLUMN price_cents integer NOT NULL DEFAULT 0 CHECK (price_cents >= 0);
ALTER TABLE sources ADD COLUMN return_window_hours integer NOT NULL DEFAULT 72 CHECK (return_window_hours >= 0);
ALTER TABLE sources ADD COLUMN duplicate_days integer NOT NULL DEFAULT 30 CHECK (duplicate_days >= 0);
-- {states?: string[], min_age?, max_age?, require_consent?: boolean}; an absent key is no rule.
ALTER TABLE sources ADD COLUMN accept jsonb NOT NULL DEFAULT '{}';
-- {daily?, monthly?}: accepted live deliveries per calendar day and month of the agent (or agency).
ALTER TABLE sources ADD COLUMN caps jsonb NOT NULL DEFAULT '{}';
ALTER TABLE sources ALTER COLUMN accept SET STATISTICS 0, ALTER COLUMN caps SET STATISTICS 0;

-- One row per accepted live delivery: what it cost and whether the vendor may bill it. `reason`
-- says why not (a repeat contact within the source's duplicate_days). Rows follow their lead when
-- an agency moves it to another producer.
CREATE TABLE lead_purchases (
  agent_id     uuid NOT NULL,
  purchase_id  uuid NOT NULL,
  lead_id      uuid NOT NULL,
  source_id    uuid NOT NULL REFERENCES sources (source_id),
  price_cents  integer NOT NULL,
  billable     boolean NOT NULL,
  reason       text,
  created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (agent_id, purchase_id),
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE
);
CREATE INDEX lead_purchases_lead_idx ON lead_purchases (agent_id, lead_id, created_at);
CREATE INDEX lead_purchases_source_idx ON lead_purchases (agent_id, source_id, created_at);

-- A source's accepted live deliveries per period ('day' or 'month', starting on `period_start` in
-- the agent's or agency's time zone), counted inside each delivery's transaction by a conditional
-- upsert: the row lock orders concurrent deliveries, and a refused or rolled-back one counts nothing.
-- Keyed by the agent the source is listed under.
CREATE TABLE source_cap_counts (
  agent_id      uuid NOT NULL,
  source_id     uuid NOT NULL,
  period        text NOT NULL CHECK (period IN ('day', 'month')),
  period_start  date NOT NULL,
  used          integer NOT NULL CHECK (used >= 0),
  PRIMARY KEY (agent_id, source_id, period, period_start),
  FOREIGN KEY (agent_id, source_id) REFERENCES sources (agent_id, source_id)
);

-- What a refusal said beyond its code (the acceptance rule a lead broke), for a refused sample and
-- for what a Listen sample's lead would be told.
ALTER TABLE listen_samples ADD COLUMN error_details text;

-- An agency's time zone is the one its sources' caps count in: a change moves them to a new revision.
CREATE FUNCTION leadgate_agency_sources_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sources SET revision = revision + 1 WHERE agency_id = NEW.agency_id;
  RETURN NULL;
END
$$;

CREATE TRIGGER agencies_timezone_revision AFTER UPDATE OF timezone ON agencies
  FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone)
  EXECUTE FUNCTION leadgate_agency_sources_changed();
