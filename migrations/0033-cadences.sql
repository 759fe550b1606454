-- Cadences (docs/cadences.md): an agent's plan of calls and texts over days. A source names the
-- cadence its new leads follow; the agent's default covers sources that name none. Deleting a
-- cadence clears it from sources and the default; leads already following it keep their copy.
CREATE TABLE cadences (
  agent_id    uuid NOT NULL REFERENCES agents (agent_id),
  cadence_id  uuid NOT NULL,
  name        text NOT NULL,
  -- [{after_minutes, action: call|text, body?}], in the order of their delay.
  steps       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, cadence_id)
);
ALTER TABLE cadences ALTER COLUMN steps SET STATISTICS 0;

-- A source's cadence is its own agent's (the agent an agency's source is listed under).
ALTER TABLE sources ADD COLUMN cadence_id uuid;
ALTER TABLE sources ADD CONSTRAINT sources_cadence_fkey FOREIGN KEY (agent_id, cadence_id)
  REFERENCES cadences (agent_id, cadence_id) ON DELETE SET NULL (cadence_id);
ALTER TABLE agents ADD COLUMN default_cadence_id uuid;
ALTER TABLE agents ADD CONSTRAINT agents_default_cadence_fkey FOREIGN KEY (agent_id, default_cadence_id)
  REFERENCES cadences (agent_id, cadence_id) ON DELETE SET NULL (default_cadence_id);

-- A lead's plan: enrolled once, at the fan-out of its delivery, with a copy of the cadence's name
-- and steps, so a cadence changed or deleted later changes no running plan. It follows its lead to
-- another producer (ON UPDATE CASCADE), who works it from then on.
CREATE TABLE cadence_runs (
  agent_id        uuid NOT NULL,
  lead_id         uuid NOT NULL,
  cadence_id      uuid NOT NULL,
  name            text NOT NULL,
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'stopped', 'completed')),
  stopped_reason  text CHECK (stopped_reason IN ('replied', 'opted_out', 'do_not_contact', 'appointment',
                                                 'reached', 'status', 'agent')),
  started_at      timestamptz NOT NULL,
  ended_at        timestamptz,
  PRIMARY KEY (agent_id, lead_id),
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE
);

-- The steps of a plan, a kind of job (src/jobs): due at `due_at`, a step makes its call task or
-- text (whose message id is `step_id`, so it is made once) and is settled in the same transaction.
-- `doing`: held by a worker under its lease.
CREATE TABLE cadence_steps (
  agent_id     uuid NOT NULL,
  lead_id      uuid NOT NULL,
  step_no      integer NOT NULL,
  step_id      uuid NOT NULL,
  action       text NOT NULL CHECK (action IN ('call', 'text')),
  body         text,
  due_at       timestamptz NOT NULL,
  status       text NOT NULL DEFAULT 'pending'
               CHECK (status IN ('pending', 'doing', 'done', 'skipped', 'canceled')),
  reason       text,
  attempts     integer NOT NULL DEFAULT 0,
  lease_until  timestamptz,
  done_at      timestamptz,
  PRIMARY KEY (agent_id, lead_id, step_no),
  FOREIGN KEY (agent_id, lead_id) REFERENCES cadence_runs (agent_id, lead_id) ON UPDATE CASCADE
);
CREATE INDEX cadence_steps_due_idx ON cadence_steps (due_at) WHERE status IN ('pending', 'doing');
-- Today counts an agent's steps still to do today.
CREATE INDEX cadence_steps_agent_due_idx ON cadence_steps (agent_id, due_at) WHERE status IN ('pending', 'doing');
