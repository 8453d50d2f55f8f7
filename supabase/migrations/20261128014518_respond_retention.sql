-- Retention as code (SPEC §25): `settings.retention_days` is enforced by a daily run, claimed by
-- inserting the day's row here, so of several instances (or drains) that try at once exactly one
-- deletes; the others find the row taken and do nothing.
create table if not exists upkeep_runs (
  job text not null,
  day date not null,
  ran_at timestamptz not null default now(),
  deleted integer,
  primary key (job, day)
);
