-- Real senders: per-source field mapping rules, the body format each delivery was read in, and
-- refused live deliveries kept as samples so a broken vendor integration is visible.

-- The agent's rules for one source: sent key → canonical field, or null to ignore the key.
ALTER TABLE sources ADD COLUMN mapping_rules jsonb NOT NULL DEFAULT '{}'::jsonb;

-- Which envelope adapter read the latest delivery (flat, meta_lead_ads, typeform, …).
ALTER TABLE leads ADD COLUMN body_format text;

-- A sample is a Listen-mode delivery (listen = true) or a refused live one (listen = false, with
-- its error_code). A body that is no JSON object is kept as the exact text received in raw_body.
ALTER TABLE listen_samples ADD COLUMN listen boolean NOT NULL DEFAULT true;
ALTER TABLE listen_samples ADD COLUMN body_format text;
ALTER TABLE listen_samples ADD COLUMN raw_body text;
ALTER TABLE listen_samples ALTER COLUMN body DROP NOT NULL;
-- Samples are purged after their retention period.
CREATE INDEX listen_samples_received_idx ON listen_samples (received_at);
