-- Entries written in one transaction (a merge and the cancel it carries) can share a timestamp,
-- and the embedded database's clock is coarse: a sequence keeps history in the order written.
ALTER TABLE lead_history ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
