-- Formdown's schema. Applied in file-name order by functions/db/migrate.ts, alike on PGlite and
-- on Postgres/Supabase (the Supabase CLI reads the same folder). Every read path has an index.

create table accounts (
  id uuid primary key default gen_random_uuid(),
  handler text not null unique check (handler ~ '^[a-z0-9][a-z0-9-]*$'),
  email text,
  created_at timestamptz not null default now()
);

create table api_keys (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  -- the first characters of the key, shown in listings so an owner can tell keys apart
  prefix text not null,
  -- sha-256 (hex) of the whole key; the key itself is never stored
  hash text not null unique,
  name text,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_account on api_keys (account_id, created_at desc);

create table forms (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  -- slugs are global: the public submit path names the slug alone
  slug text not null unique,
  -- short link code; always holds a capital letter, which slugs never do
  short_code text not null unique,
  title text not null,
  type text not null,
  -- the validated form definition (the core schema's output), markdown body included
  definition jsonb not null,
  access_mode text not null default 'public'
    check (access_mode in ('public', 'link', 'password', 'closed')),
  access_token text,
  access_password_hash text,
  -- where the form file lives in the repository, and the commit that last deployed it
  file_path text,
  commit_sha text,
  -- bumped by the submit statement itself; its row lock orders concurrent submits, so each
  -- response gets a unique sequence number and each milestone fires exactly once
  response_count integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index forms_account on forms (account_id, created_at desc);

create table responses (
  id uuid primary key default gen_random_uuid(),
  form_id uuid not null references forms(id) on delete cascade,
  -- 1-based arrival order within the form (the form's response_count after this response)
  seq integer not null,
  submitted_at timestamptz not null default now(),
  payload jsonb not null,
  score jsonb,
  idempotency_key text,
  commit_sha text
);
create index responses_form_time on responses (form_id, submitted_at desc, id desc);
create unique index responses_idempotency on responses (form_id, idempotency_key)
  where idempotency_key is not null;

-- page beacons, one counter row per form and UTC day
create table form_events (
  form_id uuid not null references forms(id) on delete cascade,
  day date not null,
  views integer not null default 0,
  starts integer not null default 0,
  primary key (form_id, day)
);

-- emails due for accepted submissions, written by the submit statement, drained by the sender
create table outbox (
  id uuid primary key default gen_random_uuid(),
  form_id uuid not null references forms(id) on delete cascade,
  response_id uuid references responses(id) on delete cascade,
  kind text not null check (kind in ('response', 'milestone')),
  milestone integer,
  recipients jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  last_error text,
  next_attempt_at timestamptz not null default now(),
  subject text,
  provider_message_id text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index outbox_due on outbox (next_attempt_at) where status = 'pending';
create index outbox_form on outbox (form_id, created_at desc);
create unique index outbox_milestone_once on outbox (form_id, milestone) where kind = 'milestone';

-- fixed-window counters for rate limits (bucket = 'submit:<form>:<ip>' or 'api:<key id>')
create table rate_limits (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, window_start)
);
create index rate_limits_window on rate_limits (window_start);

-- ALTCHA challenge signatures already redeemed, kept until they expire (replay guard)
create table used_challenges (
  signature text primary key,
  expires_at timestamptz not null
);
create index used_challenges_expiry on used_challenges (expires_at);

create table uploads (
  id uuid primary key default gen_random_uuid(),
  form_id uuid not null references forms(id) on delete cascade,
  field_id text not null,
  storage_key text not null,
  url text not null unique,
  content_type text not null,
  size_bytes bigint not null,
  response_id uuid references responses(id) on delete set null,
  created_at timestamptz not null default now()
);
create index uploads_form on uploads (form_id);
create index uploads_unreferenced on uploads (created_at) where response_id is null;

-- secrets the service generates for itself (e.g. the ALTCHA HMAC key), shared by every instance
create table server_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);
