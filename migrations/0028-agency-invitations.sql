-- Invitations to produce for an agency (docs/routing.md, "Producers join by invitation"). The agency's
-- manager writes the terms; the producer accepts with its own key, once, before `expires_at`. The
-- id is the invitation: random, handed to the producer by the manager, never listed to anyone else.
CREATE TABLE agency_invitations (
  agency_id        uuid NOT NULL REFERENCES agencies (agency_id),
  invitation_id    uuid NOT NULL,
  licensed_states  text[] NOT NULL,
  weight           integer NOT NULL DEFAULT 1 CHECK (weight >= 1),
  daily_cap        integer CHECK (daily_cap >= 1),
  active           boolean NOT NULL DEFAULT true,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  accepted_by      uuid REFERENCES agents (agent_id),
  accepted_at      timestamptz,
  PRIMARY KEY (agency_id, invitation_id)
);
