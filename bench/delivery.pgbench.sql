-- One live delivery's SQL, statement by statement, as the gateway sends it today: the database's
-- own ceiling for our work (`npm run bench` runs it with pgbench, 32 clients, prepared statements,
-- durable commits). Variables: :aid, :sid (the bench agent and source), :tokenhash (its token's
-- SHA-256), and pgbench's :client_id; every transaction writes a new contact. A colon followed by a
-- name is a pgbench variable, so the JSON below has a space after each of its colons.
\set n random(1, 2000000000)
SELECT s.agent_id, s.source_id, s.name, a.timezone, s.signing_key, s.mapping_rules,
       EXISTS (SELECT 1 FROM sync_destinations d
                WHERE d.agent_id = s.agent_id AND d.source_id = s.source_id AND d.active AND d.kind = 'partner_sync')
  FROM sources s JOIN agents a ON a.agent_id = s.agent_id
 WHERE s.token_hash = :tokenhash AND s.active;
BEGIN;
INSERT INTO idempotency_keys (agent_id, source_id, key, contact, expires_at)
  VALUES (:aid::uuid, :sid::uuid, 'pgbench-' || :client_id || '-' || :n,
          '{"name": "bench lead","phone": "2145550100","email": "bench@example.com"}', now() + interval '24 hours')
  ON CONFLICT DO NOTHING;
INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
  VALUES (:aid::uuid, 'phone', 'p' || :client_id || '-' || :n, md5(:client_id || '-' || :n)::uuid)
  ON CONFLICT (agent_id, kind, value) DO NOTHING RETURNING lead_id;
INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
  VALUES (:aid::uuid, 'email', 'e' || :client_id || '-' || :n, md5(:client_id || '-' || :n)::uuid)
  ON CONFLICT (agent_id, kind, value) DO NOTHING RETURNING lead_id;
INSERT INTO leads (agent_id, lead_id, source_id, idempotency_key, status, name, first_name, last_name, phone,
                   email, campaign_name, fields, custom_fields, consent, body_format)
  VALUES (:aid::uuid, md5(:client_id || '-' || :n)::uuid, :sid::uuid, 'pgbench-' || :client_id || '-' || :n, 'New',
          'Bench Lead', 'Bench', 'Lead', '2145550100', 'bench@example.com', 'Spring FE',
          '{"state": "TX","zipcode": "75201","city": "Dallas","address": "1200 Main St","age": 61,"date_of_birth": "1964-05-01",
            "gender": "Female","lead_category": "final-expense","coverage_type": "Final expense","coverage_amount": "15000",
            "monthly_budget": "60","smoker": false,"sms_consent": true,"consent_cert_url": "https://cert.trustedform.com/abc",
            "ip_address": "203.0.113.7","user_agent": "Mozilla/5.0","utm_source": "facebook","utm_medium": "paid",
            "utm_campaign": "fe-spring","utm_content": "carousel","utm_term": "burial insurance","leadgen_id": "1203948576",
            "ad_id": "2385123","beneficiary": "Spouse","occupation": "Retired","tags": ["fb","fe"],
            "notes": "Wants a quote for her husband too."}',
          '{"vendor_ref": "A-77","page_url": "https://quotes.example.com/fe"}',
          '{"sms_consent": true,"consent_cert_url": "https://cert.trustedform.com/abc","received_at": "2027-01-01"}',
          'flat')
  ON CONFLICT DO NOTHING;
INSERT INTO lead_history (agent_id, history_id, lead_id, source_id, event, changes, details)
  VALUES (:aid::uuid, gen_random_uuid(), md5(:client_id || '-' || :n)::uuid, :sid::uuid, 'created', '{}', '{}');
INSERT INTO outbox (agent_id, message_id, topic, lead_id, payload)
  VALUES (:aid::uuid, gen_random_uuid(), 'lead.created', md5(:client_id || '-' || :n)::uuid,
          '{"lead_id": "x","status": "New","name": "Bench Lead","phone": "2145550100"}');
UPDATE idempotency_keys SET lead_id = md5(:client_id || '-' || :n)::uuid,
       response = '{"success": true,"message": "Lead created","status": "New"}'
 WHERE agent_id = :aid::uuid AND source_id = :sid::uuid AND key = 'pgbench-' || :client_id || '-' || :n;
COMMIT;
