-- SPEC §22 "Pages submit by form id": every commit a reconcile applied, per repository and account,
-- with when. A page built from files (the static host's; it cannot know its form's id) sends the
-- commit it was built at; a commit applied before a rename names the renamed form, even after the
-- same account made a new form at the old slug (functions/services/form-address.ts).
create table if not exists applied_commits (
  repository text not null,
  account_id uuid not null references accounts(id) on delete cascade,
  commit_sha text not null,
  applied_at timestamptz not null default now(),
  primary key (account_id, commit_sha, repository)
);
