-- Consent evidence verified and revocation in plain words (docs/consent-and-revocation.md).

-- What a source's leads must bring as consent evidence: nothing, a certificate or token, or one the
-- provider confirms (TrustedForm, Jornaya) before any automatic text or call.
ALTER TABLE sources ADD COLUMN consent text NOT NULL DEFAULT 'none'
  CHECK (consent IN ('none', 'present', 'verified'));

-- The verification of a lead's certificate, claimed by the dispatcher like a webhook delivery (a
-- lease, SKIP LOCKED) and tried until `deadline`, after which it has failed. One per lead: the
-- first certificate is the one the lead came with. The lead keeps the outcome (`leads.consent_check`)
-- for its view and for the senders, which wait while it is pending.
CREATE TABLE consent_checks (
  agent_id     uuid NOT NULL,
  lead_id      uuid NOT NULL,
  provider     text NOT NULL CHECK (provider IN ('trustedform', 'jornaya', 'none')),
  evidence     text NOT NULL,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'present', 'verified', 'failed')),
  reason       text,
  attempts     integer NOT NULL DEFAULT 0,
  next_at      timestamptz NOT NULL,
  deadline     timestamptz NOT NULL,
  lease_until  timestamptz,
  checked_at   timestamptz,
  expires_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, lead_id),
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE
);
CREATE INDEX consent_checks_due_idx ON consent_checks (next_at) WHERE status = 'pending';

-- {provider, status, checked_at, expires_at} of the lead's check; null when its source asks none.
ALTER TABLE leads ADD COLUMN consent_check jsonb;
ALTER TABLE leads ALTER COLUMN consent_check SET STATISTICS 0;

-- The one text that confirms an opt-out goes out whatever the opt-out and the calling hours say;
-- its message id is made from the number, so the (agent, message) key lets one exist, however many
-- STOPs arrive at once.
ALTER TABLE sms_messages ADD COLUMN kind text NOT NULL DEFAULT 'lead'
  CHECK (kind IN ('lead', 'opt_out_confirmation'));
