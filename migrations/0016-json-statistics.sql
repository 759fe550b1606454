-- ANALYZE leaves the JSON documents alone. No statement filters, joins or groups by a jsonb column
-- as a whole (no containment, no IS NULL on one; a ->> expression is estimated without the
-- column's statistics), so the planner never reads them, while computing them was most of what
-- ANALYZE cost: it sorts a sample of every column, and comparing JSON documents is slow. Measured
-- on 32,000 bench leads on PostgreSQL 15: ANALYZE leads 1,108–1,358 ms → 234–255 ms,
-- idempotency_keys 308 → 80, outbox 153 → 46. Where the server does the upkeep itself (the
-- embedded database; a PostgreSQL with autovacuum off) it analyzes a table each time it has grown
-- by a tenth, so under a burst into growing tables these ran every few seconds.
-- A column added later as jsonb gets the same: test/schema.test.ts holds every one to it.
ALTER TABLE leads ALTER COLUMN fields SET STATISTICS 0, ALTER COLUMN custom_fields SET STATISTICS 0, ALTER COLUMN consent SET STATISTICS 0;
ALTER TABLE idempotency_keys ALTER COLUMN contact SET STATISTICS 0, ALTER COLUMN response SET STATISTICS 0;
ALTER TABLE lead_history ALTER COLUMN changes SET STATISTICS 0, ALTER COLUMN details SET STATISTICS 0;
ALTER TABLE listen_samples ALTER COLUMN body SET STATISTICS 0, ALTER COLUMN mapped SET STATISTICS 0, ALTER COLUMN custom_fields SET STATISTICS 0, ALTER COLUMN warnings SET STATISTICS 0, ALTER COLUMN would_fire SET STATISTICS 0;
ALTER TABLE outbox ALTER COLUMN payload SET STATISTICS 0;
ALTER TABLE booking_events ALTER COLUMN payload SET STATISTICS 0;
ALTER TABLE webhook_deliveries ALTER COLUMN body SET STATISTICS 0;
ALTER TABLE console_sessions ALTER COLUMN data SET STATISTICS 0;
ALTER TABLE sources ALTER COLUMN mapping_rules SET STATISTICS 0;
