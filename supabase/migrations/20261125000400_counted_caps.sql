-- Caps and milestones count stored responses, never sequence numbers (SPEC §17, §19): a failed or
-- duplicate submit leaves a gap in the form's sequence, so `seq` over-counts.
--
-- form_counters holds a form's number of stored responses, kept only by the submits that need it
-- (a cap, or an email due: functions/services/submit-sql.ts). Its row is created from count(*) by
-- the first such submit and then bumped in the submit's own statement, guarded by the cap: in READ
-- COMMITTED an UPDATE waiting on the row re-checks the guard against the committed value, so
-- concurrent submits can never pass the cap, and a submit that fails (a duplicate Idempotency-Key)
-- rolls its bump back with its row. The plain submit (no cap, no email due) does not touch it.
create table form_counters (
  form_id uuid primary key references forms(id) on delete cascade,
  responses integer not null
);

-- Erased responses free their places (statement-level: one UPDATE per DELETE statement); test
-- answers (migration 000200) never took one.
create or replace function formdown_responses_deleted() returns trigger
  language plpgsql as $$
begin
  update form_counters c set responses = greatest(0, c.responses - d.n)
    from (select form_id, count(*)::int as n from gone where not gone.test group by form_id) d
    where c.form_id = d.form_id;
  return null;
end $$;

create trigger responses_deleted after delete on responses
  referencing old table as gone
  for each statement execute function formdown_responses_deleted();

-- A new definition may add a cap or a milestone to a form whose plain submits were not counted:
-- the next counting submit starts again from count(*).
create or replace function formdown_form_redefined() returns trigger
  language plpgsql as $$
begin
  delete from form_counters where form_id = new.id;
  return null;
end $$;

create trigger forms_redefined after update of definition on forms
  for each row when (old.definition is distinct from new.definition)
  execute function formdown_form_redefined();

-- An Idempotency-Key is bound to its request: the hash of the answers it was first sent with.
alter table responses add column idempotency_hash text;
