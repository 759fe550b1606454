-- Messages of one delivery share a timestamp: a sequence keeps them, and a lead's messages across
-- deliveries, in the order written, so a dispatcher can deliver one lead's messages in order.
ALTER TABLE outbox ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
