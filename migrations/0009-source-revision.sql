-- A source's revision: bumped by every change a delivery reads of it (the source row itself, its
-- agent's time zone, its active destinations). A gateway process may then keep a source in memory
-- and let the database confirm, in the very statement that writes a lead, that the token is still
-- active and the copy still current; a revoked or changed source fails that check on its next request.
ALTER TABLE sources ADD COLUMN revision integer NOT NULL DEFAULT 1;

CREATE FUNCTION leadgate_next_source_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.revision := OLD.revision + 1;
  RETURN NEW;
END
$$;

CREATE TRIGGER sources_revision BEFORE UPDATE ON sources
  FOR EACH ROW EXECUTE FUNCTION leadgate_next_source_revision();

-- An agent's time zone or a source's destinations changed: its sources move to a new revision.
CREATE FUNCTION leadgate_source_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'agents' THEN
    UPDATE sources SET revision = revision + 1 WHERE agent_id = NEW.agent_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE sources SET revision = revision + 1 WHERE agent_id = OLD.agent_id AND source_id = OLD.source_id;
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE sources SET revision = revision + 1
     WHERE agent_id = NEW.agent_id AND source_id IN (OLD.source_id, NEW.source_id);
  ELSE
    UPDATE sources SET revision = revision + 1 WHERE agent_id = NEW.agent_id AND source_id = NEW.source_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER agents_timezone_revision AFTER UPDATE OF timezone ON agents
  FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone)
  EXECUTE FUNCTION leadgate_source_changed();

-- Only what decides `auto_sync_enabled`: a webhook's success or failure time changes no revision.
CREATE TRIGGER sync_destinations_revision AFTER INSERT OR DELETE OR UPDATE OF active, kind, source_id
  ON sync_destinations FOR EACH ROW EXECUTE FUNCTION leadgate_source_changed();
