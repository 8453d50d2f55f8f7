-- Personal links (SPEC §25): single-use invites of a form. A response names the invite it was
-- given with; the unique index keeps each invite to one response, atomically under concurrency
-- (a second submit of the same link fails with 23505 and is answered 409 already_answered), and
-- `answered_at`, written by the same statement, keeps it spent after the response is erased.
alter table forms drop constraint if exists forms_access_mode_check;
alter table forms add constraint forms_access_mode_check
  check (access_mode in ('public', 'link', 'password', 'closed', 'invite'));

create table if not exists invites (
  token text primary key,
  form_id uuid not null references forms(id) on delete cascade,
  email text,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  opened_at timestamptz,
  answered_at timestamptz,
  revoked_at timestamptz
);
create index if not exists invites_form on invites (form_id, created_at);

alter table responses add column if not exists invite text;
alter table responses add column if not exists invite_email text;
create unique index if not exists responses_invite_once on responses (form_id, invite)
  where invite is not null;

-- an invite's email travels through the outbox like every other email
alter table outbox add column if not exists invite text;
alter table outbox drop constraint if exists outbox_kind_check;
alter table outbox add constraint outbox_kind_check
  check (kind in ('response', 'milestone', 'digest', 'respondent', 'invite'));
create unique index if not exists outbox_invite_once on outbox (invite) where kind = 'invite';
