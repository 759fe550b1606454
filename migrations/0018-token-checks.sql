-- Tokens issued from now on carry a check under the installation's key (src/sources/tokens.ts), so
-- the gateway can refuse a made-up token without a lookup. Tokens issued before do not: they are
-- looked up as before, and while any source still has one, every token that fails the check is
-- looked up too. Regenerating a source's token gives it a checked one.
ALTER TABLE sources ADD COLUMN token_checked boolean NOT NULL DEFAULT false;
