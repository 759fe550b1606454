-- Console sessions are kept under the SHA-256 of their id (src/console/session.ts), as source
-- tokens and agent keys are. The sessions stored before kept the id itself; no lookup can find
-- them any more, so they are deleted: their agents log in again.
DELETE FROM console_sessions;
