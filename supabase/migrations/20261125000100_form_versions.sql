-- Form versions (SPEC §16): each deploy that changes a form's definition makes a new version,
-- its definition kept; every response records the version it was answered against.

alter table forms add column version integer not null default 1;

create table form_versions (
  form_id uuid not null references forms(id) on delete cascade,
  version integer not null,
  definition jsonb not null,
  commit_sha text,
  -- the plan's changes from the version before (empty for the first)
  changes jsonb not null default '[]',
  created_at timestamptz not null default now(),
  -- when it stopped being the live version: a page built from it may still submit for a grace period
  retired_at timestamptz,
  primary key (form_id, version)
);

insert into form_versions (form_id, version, definition, commit_sha, created_at)
  select id, 1, definition, commit_sha, created_at from forms;

-- null on responses stored before versions were recorded: they were answered against version 1
alter table responses add column version integer;

-- A payload read under the live field ids: `aliases` maps an earlier id to the live one
-- (`formerly`); an answer stored under the earlier id moves over unless the live id has one.
-- Reports aggregate over it (functions/insights/report-tallies.ts) only for forms with aliases.
create function formdown_carry(p jsonb, aliases jsonb) returns jsonb
  language sql immutable parallel safe as $$
  select p || coalesce((select jsonb_object_agg(a.value #>> '{}', p -> a.key)
    from jsonb_each(aliases) a where p ? a.key and not p ? (a.value #>> '{}')), '{}'::jsonb)
$$;
