-- Results in the browser (SPEC §26): `/results` on the API origin, for members.
--
-- A sign-in link is one-time and short-lived; a session lasts 12 hours. Both are kept as the
-- SHA-256 of their token, never the token. A session acts for a member (signed in by email) or
-- for a key (pasted once); it ends when the member is removed or the key revoked.
create table if not exists results_sign_ins (
  token_hash text primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  member_id uuid not null references members(id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index if not exists results_sign_ins_member on results_sign_ins (member_id, created_at desc);

create table if not exists results_sessions (
  token_hash text primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  member_id uuid references members(id),
  key_id uuid references api_keys(id),
  csrf text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  check (member_id is not null or key_id is not null)
);
create index if not exists results_sessions_expiry on results_sessions (expires_at);

-- The sign-in email travels through the outbox like every other email: it belongs to no form,
-- and is composed when it is written (its subject and bodies are on the row).
alter table outbox alter column form_id drop not null;
alter table outbox drop constraint if exists outbox_kind_check;
alter table outbox add constraint outbox_kind_check
  check (kind in ('response', 'milestone', 'digest', 'respondent', 'invite', 'sign_in'));
