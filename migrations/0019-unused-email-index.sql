-- No query reads leads by email through this index: a search matches email with ILIKE '%…%',
-- which a B-tree cannot serve, and repeat contacts are found through lead_contacts' keys. Every
-- lead with an email paid an index entry for it.
DROP INDEX IF EXISTS leads_agent_email_idx;
