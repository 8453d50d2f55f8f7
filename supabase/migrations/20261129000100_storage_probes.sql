-- Shared upload storage (SPEC §22 "Operator hygiene"): each server writes a small file into its
-- upload storage and records its key here; another instance that cannot read that file back keeps
-- its uploads where the first cannot see them (each on its own disk), which it then says at start
-- and `formdown doctor` fails on (functions/storage/shared-check.ts). `seen_at` is renewed while
-- the instance runs, so only instances running now are compared.
create table if not exists storage_probes (
  key text primary key,
  instance text not null,
  storage text not null,
  seen_at timestamptz not null default now()
);
create index if not exists storage_probes_seen on storage_probes (seen_at desc);
