-- Call outcomes from the dial queue (the agent console): three more lead statuses, and what became
-- of each call task.
ALTER TABLE leads DROP CONSTRAINT leads_status_check;
ALTER TABLE leads ADD CONSTRAINT leads_status_check
  CHECK (status IN ('New', 'Scheduled', 'Canceled', 'Contacted', 'Not interested', 'Bad number'));

-- A task the agent marked: its last outcome and how many calls were made. "No answer" keeps the
-- task open but out of the queue until not_before; the third no-answer closes it.
ALTER TABLE dial_tasks ADD COLUMN outcome text CHECK (outcome IN ('reached', 'no_answer', 'bad_number', 'not_interested'));
ALTER TABLE dial_tasks ADD COLUMN calls integer NOT NULL DEFAULT 0;
ALTER TABLE dial_tasks ADD COLUMN not_before timestamptz;
ALTER TABLE dial_tasks ADD COLUMN done_at timestamptz;
