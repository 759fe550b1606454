-- Conversations (docs/conversations.md): every text a prospect sends is kept, a thread per lead.

-- The number an agent texts from (Twilio's `From`), and so the number its prospects answer: an
-- inbound text sent to it goes to that agent's leads. One agent a number.
ALTER TABLE agents ADD COLUMN sms_from text;
CREATE UNIQUE INDEX agents_sms_from_idx ON agents (sms_from) WHERE sms_from IS NOT NULL;

-- Every inbound text word for word, written before anything is decided about it, whichever lead
-- it reaches or none (`leads` = 0: unmatched, for the operator to read). Written before its sender
-- is known, so not by tenant: docs/scaling.md keeps it on the coordinator. The provider's message
-- id keeps a message delivered twice stored once.
CREATE TABLE sms_inbound (
  inbound_id    uuid PRIMARY KEY,
  provider_sid  text,
  from_raw      text NOT NULL,
  to_raw        text,
  phone         text,
  to_phone      text,
  body          text NOT NULL,
  truncated     boolean NOT NULL DEFAULT false,
  received_at   timestamptz NOT NULL DEFAULT now(),
  leads         integer,
  matched_by    text CHECK (matched_by IN ('to', 'texted', 'number'))
);
CREATE UNIQUE INDEX sms_inbound_sid_idx ON sms_inbound (provider_sid) WHERE provider_sid IS NOT NULL;
CREATE INDEX sms_inbound_received_idx ON sms_inbound (received_at);

-- The text in each thread it reached: one row per lead, under the lead's agent. `intent`: a plain
-- reply, one that limits when or how to be contacted (automatic texts to the number wait until the
-- agent reads it), or an opt-out. Unread until the agent reads the thread or answers it.
CREATE TABLE sms_replies (
  agent_id     uuid NOT NULL,
  reply_id     uuid NOT NULL,
  lead_id      uuid NOT NULL,
  inbound_id   uuid NOT NULL,
  phone        text NOT NULL,
  body         text NOT NULL,
  intent       text NOT NULL CHECK (intent IN ('reply', 'contact_limits', 'opt_out')),
  received_at  timestamptz NOT NULL,
  read_at      timestamptz,
  PRIMARY KEY (agent_id, reply_id),
  UNIQUE (agent_id, lead_id, inbound_id),
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE
);
CREATE INDEX sms_replies_thread_idx ON sms_replies (agent_id, lead_id, received_at);
CREATE INDEX sms_replies_unread_idx ON sms_replies (agent_id, received_at) WHERE read_at IS NULL;

-- The agent's own answers are texts like the others, sent by the dispatcher; the provider's later
-- word on each (Twilio's status callback: delivered, undelivered, failed, with its error code).
ALTER TABLE sms_messages DROP CONSTRAINT sms_messages_kind_check;
ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_kind_check
  CHECK (kind IN ('lead', 'opt_out_confirmation', 'agent'));
ALTER TABLE sms_messages ADD COLUMN provider_status text;
ALTER TABLE sms_messages ADD COLUMN provider_error text;

-- The prospect's own words when a reply opted the number out (a keyword or a sentence), for the lead
-- to show whatever the decision: "revoked (date, words)".
ALTER TABLE sms_opt_outs ADD COLUMN words text;
