-- Deleting a response (one, a range, retention's daily run, a form's) runs the foreign keys'
-- actions on outbox (cascade) and uploads (set null) once per response, each a look-up by
-- response_id, which neither table had an index for (outbox_respondent_once covers only
-- respondent copies): every deleted response scanned the whole outbox, every account's emails
-- kept for good. 20,000 emails made retention's deletion of 20,000 responses on PGlite take 54 s.
create index if not exists outbox_response on outbox (response_id);
create index if not exists uploads_response on uploads (response_id);
