-- Reminders to the prospect before an appointment (docs/reminders.md): a text a day and an hour
-- before, each on unless the agent turns it off; the agent's own words, or the default (null).
ALTER TABLE agents
  ADD COLUMN reminder_day_before  boolean NOT NULL DEFAULT true,
  ADD COLUMN reminder_hour_before boolean NOT NULL DEFAULT true,
  ADD COLUMN reminder_template    text;

-- One row per reminder of a booked appointment, planned at the fan-out of its booking (or when the
-- agent turns a reminder on). A kind of job (src/jobs): `planned` until due, `sending` while a
-- worker holds it under its lease, then `sent` (its text written to the texts' queue) or `skipped`
-- with the reason. `appointment_at` is the time it was planned for: an appointment moved since
-- gets no reminder of the old time. It follows its appointment, and so its lead, to another
-- producer (ON UPDATE CASCADE).
CREATE TABLE appointment_reminders (
  agent_id        uuid NOT NULL,
  appointment_id  uuid NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('day_before', 'hour_before')),
  lead_id         uuid NOT NULL,
  appointment_at  timestamptz NOT NULL,
  due_at          timestamptz NOT NULL,
  status          text NOT NULL DEFAULT 'planned' CHECK (status IN ('planned', 'sending', 'sent', 'skipped')),
  -- Why it was skipped, or why it waits past its time.
  reason          text,
  attempts        integer NOT NULL DEFAULT 0,
  lease_until     timestamptz,
  done_at         timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, appointment_id, kind),
  FOREIGN KEY (agent_id, appointment_id) REFERENCES appointments (agent_id, appointment_id) ON UPDATE CASCADE
);
-- The queue's claim reads the reminders due; the rest are history the lead page reads by appointment.
CREATE INDEX appointment_reminders_due_idx ON appointment_reminders (due_at) WHERE status IN ('planned', 'sending');
-- The lead page reads a lead's reminders through its appointments (the primary key's prefix).
