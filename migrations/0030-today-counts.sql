-- Today counts the agent's failed deliveries and texts on every read, now every 2 seconds while the
-- page is open (docs/console.md): without these, each count read every delivery and every text the
-- agent ever had. Failures are rare, so the indexes are small and a row enters one only as it fails.
CREATE INDEX webhook_deliveries_dead_idx ON webhook_deliveries (agent_id) WHERE status = 'dead';
CREATE INDEX sms_messages_failed_idx ON sms_messages (agent_id) WHERE status = 'failed';
