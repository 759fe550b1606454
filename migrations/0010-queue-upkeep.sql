-- The dispatcher's queues are tables whose rows are inserted, updated once or twice and then left:
-- at a thousand leads a second, PostgreSQL's default (vacuum a table once a fifth of it is dead
-- rows) lets dead index entries pile up by the hundred thousand, and claiming the next 200 due rows
-- walked through them all (measured: 1.1 s a claim after ten minutes). Vacuum and analyze them
-- after 1 % instead, as queue tables usually are.
ALTER TABLE outbox SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01);
ALTER TABLE webhook_deliveries SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01);
ALTER TABLE sms_messages SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01);

-- Due deliveries are claimed in (next_attempt_at, seq) order: the index now holds both, so a claim
-- reads its 200 rows in order and stops.
DROP INDEX webhook_deliveries_due_idx;
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, seq) WHERE status IN ('pending', 'sending');
