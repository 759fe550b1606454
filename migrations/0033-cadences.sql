-- Cadences (docs/cadences.md): an agent's plan of calls and texts over days. A source names the
-- cadence its new leads follow; the agent's default covers sources that name none. Deleting a
-- cadence clears it from sources and the default; leads already following it keep their version.
CREATE TABLE cadences (
  agent_id    uuid NOT NULL REFERENCES agents (agent_id),
  cadence_id  uuid NOT NULL,
  name        text NOT NULL,
  -- [{after_minutes, action: call|text, body?}], in the order of their delay.
  steps       jsonb NOT NULL,
  -- The cadence_versions row that holds these steps: a new one each time they change.
  version     integer NOT NULL DEFAULT 1,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, cadence_id)
);
ALTER TABLE cadences ALTER COLUMN steps SET STATISTICS 0;

-- Every version of a cadence's name and steps, kept after a change or a delete: a lead follows the
-- version it was enrolled in, so a plan costs its lead one small row, not a copy of the steps.
CREATE TABLE cadence_versions (
  agent_id    uuid NOT NULL,
  cadence_id  uuid NOT NULL,
  version     integer NOT NULL,
  name        text NOT NULL,
  steps       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, cadence_id, version)
);
ALTER TABLE cadence_versions ALTER COLUMN steps SET STATISTICS 0;

-- A source's cadence is its own agent's (the agent an agency's source is listed under).
ALTER TABLE sources ADD COLUMN cadence_id uuid;
ALTER TABLE sources ADD CONSTRAINT sources_cadence_fkey FOREIGN KEY (agent_id, cadence_id)
  REFERENCES cadences (agent_id, cadence_id) ON DELETE SET NULL (cadence_id);
ALTER TABLE agents ADD COLUMN default_cadence_id uuid;
ALTER TABLE agents ADD CONSTRAINT agents_default_cadence_fkey FOREIGN KEY (agent_id, default_cadence_id)
  REFERENCES cadences (agent_id, cadence_id) ON DELETE SET NULL (default_cadence_id);

-- A lead's plan, enrolled once at the fan-out of its delivery: the version it follows (of the
-- cadence's owner, `cadence_agent_id`), where its due times are worked out from (`started_at`, the
-- prospect's zone and state), and how far it has come: `next_step` falls due at `due_at`; `steps`
-- holds what came of each step done so far. The plan is a kind of job (src/jobs): `stepping` while a
-- worker holds it under its lease. It follows its lead to another producer (ON UPDATE CASCADE).
CREATE TABLE cadence_runs (
  agent_id          uuid NOT NULL,
  lead_id           uuid NOT NULL,
  cadence_agent_id  uuid NOT NULL,
  cadence_id        uuid NOT NULL,
  version           integer NOT NULL,
  started_at        timestamptz NOT NULL,
  zone              text NOT NULL,
  state             text,
  next_step         integer NOT NULL DEFAULT 0,
  due_at            timestamptz NOT NULL,
  steps             jsonb NOT NULL DEFAULT '[]',
  status            text NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'stepping', 'stopped', 'completed')),
  stopped_reason    text CHECK (stopped_reason IN ('replied', 'opted_out', 'do_not_contact', 'appointment',
                                                   'reached', 'status', 'agent')),
  -- Why the next step waits past its time (outside calling hours, the state's texts in 24 hours).
  reason            text,
  attempts          integer NOT NULL DEFAULT 0,
  lease_until       timestamptz,
  ended_at          timestamptz,
  PRIMARY KEY (agent_id, lead_id),
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE
);
ALTER TABLE cadence_runs ALTER COLUMN steps SET STATISTICS 0;
CREATE INDEX cadence_runs_due_idx ON cadence_runs (due_at) WHERE status IN ('active', 'stepping');
-- Today counts an agent's plans with a step due today.
CREATE INDEX cadence_runs_agent_due_idx ON cadence_runs (agent_id, due_at) WHERE status IN ('active', 'stepping');
