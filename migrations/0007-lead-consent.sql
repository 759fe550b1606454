-- The evidence of the lead's texting consent: what the latest delivery that stated `sms_consent`
-- said, with its certificate URL, IP address, user agent, lead source and time. Null until a
-- delivery states it. Earlier deliveries stay in the lead's history.
ALTER TABLE leads ADD COLUMN consent jsonb;
