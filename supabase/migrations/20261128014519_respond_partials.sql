-- Partial responses (SPEC §25, opt-in with settings.partial): a respondent's answers saved page
-- by page under a secret resume token, apart from the responses, so counts, exports, emails and
-- webhooks never see them. The completing submit writes the response under the partial's id and
-- deletes the partial in the same statement; the daily upkeep removes those past partial_days.
create table if not exists partials (
  id uuid primary key,
  form_id uuid not null references forms(id) on delete cascade,
  token text not null unique,
  payload jsonb not null,
  page integer,
  lang text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists partials_form on partials (form_id, updated_at desc);
