-- Agent-scoped access (the agent console). An agent may have a console login (an email and a
-- memory-hard password hash) and API keys of its own; with either it sees only its own data.

ALTER TABLE agents ADD COLUMN email text;
ALTER TABLE agents ADD COLUMN password_hash text;
-- One login per email, whatever its case.
CREATE UNIQUE INDEX agents_email_key ON agents (lower(email)) WHERE email IS NOT NULL;

-- An agent API key is 32 random bytes: it is stored as its SHA-256 (a memory-hard hash is for
-- guessable secrets), looked up on every request, and dead the moment revoked_at is set.
CREATE TABLE agent_keys (
  agent_id    uuid NOT NULL REFERENCES agents (agent_id),
  key_id      uuid NOT NULL,
  key_hash    text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  PRIMARY KEY (agent_id, key_id)
);

-- Console sessions, server-side so logout (or a password change) ends them in every process at
-- once. The cookie carries only the signed session id; `data` holds the CSRF secret.
CREATE TABLE console_sessions (
  agent_id     uuid NOT NULL REFERENCES agents (agent_id),
  session_id   text NOT NULL,
  data         jsonb NOT NULL DEFAULT '{}',
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (session_id)
);
CREATE INDEX console_sessions_agent_idx ON console_sessions (agent_id);

-- Failed console logins, counted per email and per client address over the last 15 minutes
-- (10 of either: 429). agent_id is the agent the email names, or null for an unknown email.
CREATE TABLE login_failures (
  agent_id   uuid,
  email      text NOT NULL,
  ip         text NOT NULL,
  failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_email_idx ON login_failures (lower(email), failed_at);
CREATE INDEX login_failures_ip_idx ON login_failures (ip, failed_at);

-- Process-wide settings every gateway process shares, such as the console's cookie-signing secret
-- when SESSION_SECRET is not set. agent_id is null: these belong to no agent.
CREATE TABLE settings (
  agent_id  uuid,
  name      text PRIMARY KEY,
  value     text NOT NULL
);

-- The console reads a lead's automations (its webhook deliveries, texts and call tasks) and an
-- agent's deliveries newest first: indexes so both stay fast with 100,000 leads.
CREATE INDEX webhook_deliveries_lead_idx ON webhook_deliveries (agent_id, lead_id);
CREATE INDEX webhook_deliveries_agent_created_idx ON webhook_deliveries (agent_id, created_at DESC, seq DESC);
CREATE INDEX sms_messages_lead_idx ON sms_messages (agent_id, lead_id);
CREATE INDEX dial_tasks_lead_idx ON dial_tasks (agent_id, lead_id);
