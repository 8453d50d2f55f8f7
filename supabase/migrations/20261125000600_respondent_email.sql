-- The confirmation email to the respondent (SPEC §21): an outbox row of its own kind, written by
-- the submit statement, at most one per response.
alter table outbox drop constraint if exists outbox_kind_check;
alter table outbox add constraint outbox_kind_check
  check (kind in ('response', 'milestone', 'digest', 'respondent'));
create unique index if not exists outbox_respondent_once on outbox (response_id)
  where kind = 'respondent';
