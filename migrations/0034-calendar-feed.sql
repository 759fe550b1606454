-- The agent's calendar feed (docs/calendar.md): one event per appointment, the same event after a
-- reschedule. The appointment a reschedule made continues the one it replaced: the same series
-- (the first appointment's id, the event's UID; null for an appointment that starts its own) and a
-- higher sequence. Every change of an appointment's status raises its sequence too.
ALTER TABLE appointments
  ADD COLUMN series_id uuid,
  ADD COLUMN sequence  integer NOT NULL DEFAULT 0,
  -- When the booking says the meeting ends; else the agent's appointment_minutes.
  ADD COLUMN ends_at   timestamptz;

ALTER TABLE agents
  ADD COLUMN appointment_minutes integer NOT NULL DEFAULT 30 CHECK (appointment_minutes BETWEEN 5 AND 480);

-- One secret feed URL per agent, kept only as the SHA-256 of its secret: a new one replaces it.
CREATE TABLE calendar_feeds (
  agent_id     uuid PRIMARY KEY REFERENCES agents (agent_id) ON DELETE CASCADE,
  secret_hash  text NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL DEFAULT now()
);
