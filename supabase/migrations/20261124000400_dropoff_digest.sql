-- Drop-off, time to complete, digests (issue 17, SPEC §13). Idempotent: another branch may add
-- the same columns and tables under its own number.

-- seconds from the respondent's start to the submit, as the page measured it (null: not sent)
alter table responses add column if not exists seconds integer;

-- progress beacons like views and starts: one counter row per form, UTC day and field, counting
-- the respondents whose furthest field was that one
create table if not exists form_progress (
  form_id uuid not null references forms(id) on delete cascade,
  day date not null,
  field text not null,
  reached integer not null default 0,
  primary key (form_id, day, field)
);

-- digests travel through the outbox like every other email; the key names the form's period
-- ('daily:2026-11-23', 'weekly:2026-11-16') and the unique index keeps it to one email, however
-- many instances enqueue it
alter table outbox add column if not exists digest_key text;
alter table outbox add column if not exists digest_from timestamptz;
alter table outbox add column if not exists digest_until timestamptz;
alter table outbox drop constraint if exists outbox_kind_check;
alter table outbox add constraint outbox_kind_check
  check (kind in ('response', 'milestone', 'digest'));
create unique index if not exists outbox_digest_once on outbox (form_id, digest_key)
  where kind = 'digest';
