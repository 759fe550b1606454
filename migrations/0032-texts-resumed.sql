-- A prospect who opted out by keyword and then texts START, UNSTOP or YES has texts again from the
-- agents the opt-out covered; calls stay stopped (docs/conversations.md). The opt-out row is kept,
-- with when texts resumed and the words that asked; a later STOP clears it again. An agent's own
-- "do not contact" is never resumed this way. A START is looked up by number alone: a rare reply,
-- on a table no delivery writes.
ALTER TABLE sms_opt_outs ADD COLUMN texts_resumed_at timestamptz;
ALTER TABLE sms_opt_outs ADD COLUMN resumed_words text;
CREATE INDEX sms_opt_outs_phone_idx ON sms_opt_outs (phone);
