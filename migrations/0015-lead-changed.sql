-- A statement that writes a repeat contact's merge without a transaction around it (it read the
-- stored lead a moment before, unlocked) calls this when the lead turned out to have changed since
-- after it had already claimed the idempotency key or a contact key: the error undoes the whole
-- statement, so it writes nothing, and the gateway makes the delivery again the locking way.
CREATE FUNCTION leadgate_lead_changed() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the lead changed since it was read' USING ERRCODE = 'LG409';
END
$$;
