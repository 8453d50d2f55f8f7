-- SPEC §22 "One reconcile": per repository and account, the last commit a reconcile applied (a
-- later reconcile finds renames by `git diff -M` against it), and on each form the repository
-- its file came from (only a form a repository gave is closed when its file leaves it).
create table repository_heads (
  repository text not null,
  account_id uuid not null references accounts(id) on delete cascade,
  commit_sha text not null,
  applied_at timestamptz not null default now(),
  primary key (repository, account_id)
);
alter table forms add column repository text;
