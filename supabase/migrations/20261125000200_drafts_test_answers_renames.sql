-- SPEC §16, day two: drafts with a preview link, test answers, and slugs that change.

-- A draft has no public page and takes only test answers; `publish` clears the flag. The preview
-- token is the unguessable part of its preview URL (kept after publishing: the preview still works).
alter table forms add column if not exists draft boolean not null default false;
alter table forms add column if not exists preview_token text;
create unique index if not exists forms_preview_token on forms (preview_token)
  where preview_token is not null;

-- A response sent with the owner's key or from a preview page. Test rows take seq 0 (never the
-- form's sequence, so counts and milestones stay the real ones) and are left out of every read
-- unless asked for (`include_test=true`).
alter table responses add column if not exists test boolean not null default false;
create index if not exists responses_form_test on responses (form_id) where test;

-- A form whose file was renamed keeps its id, responses and webhooks; its old public URL
-- redirects (301) to the new one. A form that takes the old slug later wins over the redirect.
create table if not exists form_slug_redirects (
  old_slug text primary key,
  form_id uuid not null references forms(id) on delete cascade,
  created_at timestamptz not null default now()
);
create index if not exists form_slug_redirects_form on form_slug_redirects (form_id);
