-- A message is deleted when it is handed on (src/automations/fan-out.ts), in the transaction that
-- writes its webhook deliveries, call task and text; it was marked dispatched and kept, read by
-- nothing again. The ones kept so far go too. `dispatched_at` stays, always null from now on, so a
-- process of the earlier version beside this one still hands its messages on once.
DELETE FROM outbox WHERE dispatched_at IS NOT NULL;
