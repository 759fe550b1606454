-- Contact keys: every normalized phone and lowercased email a lead has carried, unique per agent.
-- The primary key is what makes two simultaneous first deliveries of one contact create one lead,
-- across processes: the second insert waits for the first transaction and then conflicts.
CREATE TABLE lead_contacts (
  agent_id    uuid NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('phone', 'email')),
  value       text NOT NULL,
  lead_id     uuid NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, kind, value),
  -- Deferred: keys are claimed before the lead row they point to is inserted.
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX lead_contacts_lead_idx ON lead_contacts (agent_id, lead_id);

INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
SELECT DISTINCT ON (agent_id, phone) agent_id, 'phone', phone, lead_id
  FROM leads WHERE phone IS NOT NULL ORDER BY agent_id, phone, created_at;

INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
SELECT DISTINCT ON (agent_id, lower(email)) agent_id, 'email', lower(email), lead_id
  FROM leads WHERE email IS NOT NULL ORDER BY agent_id, lower(email), created_at;
