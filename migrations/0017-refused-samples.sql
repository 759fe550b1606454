-- A source's refused deliveries, newest first: the gateway keeps the newest 100 per source and
-- trims the rest in the statement that stores a new one (src/listen/listen-sample-repository.ts).
-- Read through the index of all samples, that trim walked past every Listen sample of the source as
-- well; this one holds only the refused.
CREATE INDEX listen_samples_refused_idx ON listen_samples (agent_id, source_id, received_at DESC, sample_id DESC)
  WHERE NOT listen;
