-- Every booking-scheduler event received, acted on or not, where the agent can see it.
CREATE TABLE booking_events (
  agent_id     uuid NOT NULL,
  event_id     uuid NOT NULL,
  source_id    uuid NOT NULL,
  event        text NOT NULL,
  invitee_uri  text,
  lead_id      uuid,
  outcome      text NOT NULL,
  payload      jsonb NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (agent_id, event_id),
  FOREIGN KEY (agent_id, source_id) REFERENCES sources (agent_id, source_id)
);
CREATE INDEX booking_events_source_idx ON booking_events (agent_id, source_id, received_at DESC);

-- A scheduler's invitee is one appointment: its uri is the appointment's external id, unique per
-- agent, so a retried or late `invitee.created` never books it twice.
CREATE UNIQUE INDEX appointments_external_id_key ON appointments (agent_id, external_id) WHERE external_id IS NOT NULL;
