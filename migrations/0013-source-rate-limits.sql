-- A source's own rate limit (for a big import, say): requests per second and burst; null keeps the
-- server's RATE_LIMIT_RPS / RATE_LIMIT_BURST. A change bumps the source's revision (0009), so
-- gateway processes pick it up.
ALTER TABLE sources ADD COLUMN rate_limit_rps integer CHECK (rate_limit_rps BETWEEN 1 AND 10000);
ALTER TABLE sources ADD COLUMN rate_limit_burst integer CHECK (rate_limit_burst BETWEEN 1 AND 100000);
