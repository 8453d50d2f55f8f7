-- Drop-off and time to complete (SPEC §13), the data the page sends; stats read it.
--
-- How long a respondent took: seconds from their first answer to the submit, as the page
-- measured it (the submit body's top-level "seconds"); null when absent or implausible.
alter table responses add column seconds integer;

-- Progress beacons, one counter row per form, UTC day and field. The page sends
-- {"type": "progress", "field": id} once for each answerable field a respondent reaches, in form
-- order (focusing or answering a field, or arriving on its page, reaches it and every visible
-- field before it), never twice for one respondent. So `reached` for a field is how many
-- respondents got at least that far; the furthest field of one respondent is the last beacon it
-- sent. No answer ever travels with a beacon.
create table form_progress (
  form_id uuid not null references forms(id) on delete cascade,
  day date not null,
  field text not null,
  reached integer not null default 0,
  primary key (form_id, day, field)
);
