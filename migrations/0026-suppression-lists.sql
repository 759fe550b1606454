-- Compliance screening (docs/compliance.md): suppression lists per agent and per agency, the
-- lead's screening, and call tasks kept in the queue but blocked from being called.

-- A call task that screening forbids stays visible in the queue, with why, and is never dialled.
ALTER TABLE dial_tasks DROP CONSTRAINT dial_tasks_status_check;
ALTER TABLE dial_tasks ADD CONSTRAINT dial_tasks_status_check CHECK (status IN ('open', 'done', 'blocked'));
ALTER TABLE dial_tasks ADD COLUMN blocked_reason text;
CREATE INDEX dial_tasks_blocked_idx ON dial_tasks (agent_id, created_at) WHERE status = 'blocked';

-- The lists a lead was on when it came in: [{list, matched: "phone" | "email", since}], [] when none.
ALTER TABLE leads ADD COLUMN screening jsonb;
ALTER TABLE leads ALTER COLUMN screening SET STATISTICS 0;

-- An agent's lists: when each was last loaded (the registry must be reloaded every 31 days) and
-- how many entries it has, kept with every change so a count never scans the list.
CREATE TABLE suppression_lists (
  agent_id   uuid NOT NULL REFERENCES agents (agent_id),
  list       text NOT NULL CHECK (list IN ('dnc', 'litigator', 'customer', 'registry')),
  loaded_at  timestamptz NOT NULL DEFAULT now(),
  entries    bigint NOT NULL DEFAULT 0 CHECK (entries >= 0),
  PRIMARY KEY (agent_id, list)
);

-- An entry: a phone (10 digits) or an email (lower case). Looked up by agent, list and value: the
-- screening of a lead names the four lists and its phone and email, so the key is its index.
CREATE TABLE suppressions (
  agent_id  uuid NOT NULL,
  list      text NOT NULL,
  value     text NOT NULL CHECK (value ~ '^[0-9]{10}$' OR value LIKE '%@%'),
  added_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, list, value),
  FOREIGN KEY (agent_id, list) REFERENCES suppression_lists (agent_id, list)
);

-- An agency's lists cover the leads of all its producers: the same two tables, keyed by the agency.
CREATE TABLE agency_suppression_lists (
  agency_id  uuid NOT NULL REFERENCES agencies (agency_id),
  list       text NOT NULL CHECK (list IN ('dnc', 'litigator', 'customer', 'registry')),
  loaded_at  timestamptz NOT NULL DEFAULT now(),
  entries    bigint NOT NULL DEFAULT 0 CHECK (entries >= 0),
  PRIMARY KEY (agency_id, list)
);

CREATE TABLE agency_suppressions (
  agency_id  uuid NOT NULL,
  list       text NOT NULL,
  value      text NOT NULL CHECK (value ~ '^[0-9]{10}$' OR value LIKE '%@%'),
  added_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agency_id, list, value),
  FOREIGN KEY (agency_id, list) REFERENCES agency_suppression_lists (agency_id, list)
);
