-- Returns and sales (docs/economics.md): what an agent sends back to a vendor, and what a lead
-- earned. Both hang on the lead by its key and move with it between an agency's producers.

-- A sold lead says so; the sale is its own row, the status only follows it.
ALTER TABLE leads DROP CONSTRAINT leads_status_check;
ALTER TABLE leads ADD CONSTRAINT leads_status_check
  CHECK (status IN ('New', 'Scheduled', 'Canceled', 'Contacted', 'Not interested', 'Bad number', 'Sold'));

-- A return asks the source's vendor to credit one purchase of the lead. One return a purchase: the
-- unique key, not a read before the insert, decides a second asking (409 ALREADY_RETURNED).
CREATE TABLE lead_returns (
  agent_id      uuid NOT NULL,
  return_id     uuid NOT NULL,
  lead_id       uuid NOT NULL,
  source_id     uuid NOT NULL REFERENCES sources (source_id),
  purchase_id   uuid NOT NULL,
  reason        text NOT NULL CHECK (reason IN ('disconnected', 'wrong_number', 'duplicate', 'out_of_area',
                                                'consumer_denies', 'age', 'fraud', 'other')),
  note          text,
  status        text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'credited', 'denied')),
  price_cents   integer NOT NULL CHECK (price_cents >= 0),
  evidence      jsonb NOT NULL,
  created_at    timestamptz NOT NULL,
  decided_at    timestamptz,
  PRIMARY KEY (agent_id, return_id),
  UNIQUE (agent_id, purchase_id),
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE
);
ALTER TABLE lead_returns ALTER COLUMN evidence SET STATISTICS 0;
CREATE INDEX lead_returns_lead_idx ON lead_returns (agent_id, lead_id);
CREATE INDEX lead_returns_return_id_idx ON lead_returns (return_id);

-- A policy sold to the lead: the premium it earned, counted for the lead's source in the report.
CREATE TABLE lead_sales (
  agent_id       uuid NOT NULL,
  sale_id        uuid NOT NULL,
  lead_id        uuid NOT NULL,
  source_id      uuid NOT NULL REFERENCES sources (source_id),
  premium_cents  integer NOT NULL CHECK (premium_cents >= 0),
  product        text,
  sold_at        timestamptz NOT NULL,
  created_at     timestamptz NOT NULL,
  PRIMARY KEY (agent_id, sale_id),
  FOREIGN KEY (agent_id, lead_id) REFERENCES leads (agent_id, lead_id) ON UPDATE CASCADE
);
CREATE INDEX lead_sales_lead_idx ON lead_sales (agent_id, lead_id);
