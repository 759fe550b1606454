-- A lead's email is compared as stored (screening, the dial queue, Today, a reassignment's contact
-- check), so every stored one is as intake normalizes it: trimmed and lower case, in the column and
-- in the lead's fields. Intake writes them so; this makes any row written otherwise the same.
-- No index reads leads by email, so none is rebuilt.
UPDATE leads SET email = lower(btrim(email)) WHERE email <> lower(btrim(email));
UPDATE leads SET fields = jsonb_set(fields, '{email}', to_jsonb(lower(btrim(fields->>'email'))))
 WHERE jsonb_typeof(fields->'email') = 'string' AND fields->>'email' <> lower(btrim(fields->>'email'));
