-- The resume link by email (SPEC §25): when a partial response of a form with settings.partial
-- names an email address, the respondent gets one link (kind `resume`) that continues it on any
-- device. One per partial: `mailed` is set by the statement that queues it (or drops it past the
-- relay limit, §23: the respondent_copies places it shares with the respondent's copy), and the
-- unique index keeps a second row out. The row lives as long as its partial (cascade): a partial
-- completed, erased or expired takes its link with it, so no resume token outlives its answers.
-- A partial of an invite-only form keeps the personal link it was saved with: its resume link
-- carries that too.
alter table partials add column if not exists mailed boolean not null default false;
alter table partials add column if not exists invite text;

alter table outbox add column if not exists partial uuid references partials(id) on delete cascade;
-- (sign_in: the team branch's sign-in email, migration 20261128014601, kept allowed whichever
-- of the two is merged first)
alter table outbox drop constraint if exists outbox_kind_check;
alter table outbox add constraint outbox_kind_check
  check (kind in ('response', 'milestone', 'digest', 'respondent', 'invite', 'sign_in', 'resume'));
create unique index if not exists outbox_resume_once on outbox (partial) where kind = 'resume';
