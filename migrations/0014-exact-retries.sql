-- An idempotency key remembers the bytes it was first used with: the SHA-256 of the delivery's
-- Content-Type and body (base64). A resend of exactly those bytes under the key is the same
-- delivery, answered with the stored response without mapping it again; null for keys stored
-- before, and for scheduler events (whose key comes from the event, not a header).
ALTER TABLE idempotency_keys ADD COLUMN body_digest text;
