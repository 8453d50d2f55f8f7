-- The team's side (SPEC §26): members with roles, each holding their own keys, and the audit log.
--
-- A member is a person of the account (by email) with a role: `viewer` reads, `editor` also
-- changes forms, `owner` also manages keys, members, webhooks and deletes (the key scopes of
-- SPEC §23: read < write < admin). A removed member keeps their row (the log names them) and
-- loses their keys. Keys without a member are the account's own (the first key, start-up).
create table if not exists members (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  email text not null check (length(email) between 3 and 254),
  role text not null check (role in ('owner', 'editor', 'viewer')),
  created_at timestamptz not null default now(),
  removed_at timestamptz
);
-- one live member per address and account
create unique index if not exists members_live_email on members (account_id, lower(email))
  where removed_at is null;

alter table api_keys add column if not exists member_id uuid references members(id);
create index if not exists api_keys_member on api_keys (member_id) where member_id is not null;

-- Every read of responses and every change (functions/audit/): who (the key and its member, by
-- id and by name as they were), what, on which form, from where. Kept 365 days.
create table if not exists audit_log (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  at timestamptz not null default now(),
  key_id uuid,
  member_id uuid,
  actor text not null,
  action text not null,
  form text,
  detail jsonb not null default '{}',
  ip text
);
create index if not exists audit_log_account_at on audit_log (account_id, at desc, id desc);
create index if not exists audit_log_at on audit_log (at);
