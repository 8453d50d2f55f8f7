-- What the stats and the report found in a form's closed days (functions/insights/closed-days.ts):
-- one row per form and aggregate (`key`, a digest of its statement and parameters) holding the
-- aggregate of every response submitted before `until`, a UTC midnight over an hour past. A read
-- then scans only the responses since `until`, over the (form_id, submitted_at) index.
--
-- A change to responses already counted sets the kept aggregates aside: the form's generation
-- (response_rollup_gens) moves on in the changing transaction, and a row kept under an earlier
-- generation is not used. A reader keeps what it computed under the generation it read before its
-- scan, so a change committed during the scan makes it stale at once rather than wrong later.
create table response_rollups (
  form_id uuid not null references forms(id) on delete cascade,
  key text not null,
  gen bigint not null,
  until timestamptz not null,
  value jsonb not null,
  primary key (form_id, key)
);

create table response_rollup_gens (
  form_id uuid primary key references forms(id) on delete cascade,
  gen bigint not null
);

-- A deleted form's own trigger deletes its responses after its row: nothing left to set aside.
create or replace function formdown_rollups_stale(changed uuid[]) returns void
  language sql as $$
  insert into response_rollup_gens (form_id, gen)
    select f, 1 from unnest(changed) as f where exists (select 1 from forms where id = f)
  on conflict (form_id) do update set gen = response_rollup_gens.gen + 1;
$$;

-- Erased responses free their places (migration 20261125000400) and change what was counted.
create or replace function formdown_responses_deleted() returns trigger
  language plpgsql as $$
begin
  update form_counters c set responses = greatest(0, c.responses - d.n)
    from (select form_id, count(*)::int as n from gone where not gone.test group by form_id) d
    where c.form_id = d.form_id;
  perform formdown_rollups_stale(array(select distinct form_id from gone));
  return null;
end $$;

-- The service never updates a response; a hand-written UPDATE is a change all the same.
create or replace function formdown_responses_revised() returns trigger
  language plpgsql as $$
begin
  perform formdown_rollups_stale(array(select distinct form_id from revised));
  return null;
end $$;

create trigger responses_revised after update on responses
  referencing old table as revised
  for each statement execute function formdown_responses_revised();

-- A submit dates its response now(); one dated earlier (written by hand, a restore) may fall in a
-- day already kept, however little earlier. The WHEN is all a submit pays. Without a kept aggregate there is nothing to
-- set aside, so a bulk restore into a form no one has read costs no more than its rows.
create or replace function formdown_response_backdated() returns trigger
  language plpgsql as $$
begin
  if exists (select 1 from response_rollups where form_id = new.form_id) then
    perform formdown_rollups_stale(array[new.form_id]);
  end if;
  return null;
end $$;

create trigger responses_backdated after insert on responses
  for each row when (new.submitted_at < now())
  execute function formdown_response_backdated();
