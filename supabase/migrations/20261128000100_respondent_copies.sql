-- Respondent copies are no relay (SPEC §23): at most 3 copies to one address per form in any
-- 24 hours. The submit statement (functions/services/submit-sql.ts) takes a place here before it
-- writes the respondent's outbox row, in the same statement: ON CONFLICT DO UPDATE locks the
-- row, so concurrent submits to one address take turns and none passes the limit. One row per
-- form and address — its SHA-256, never the address (an erased response leaves no address here):
-- `sent` the copies of the last 24 hours, `dropped` the copies refused (the form's stats count
-- them), `accepted` whether the last submit got its copy.
create table if not exists respondent_copies (
  form_id uuid not null references forms(id) on delete cascade,
  address text not null,
  sent timestamptz[] not null,
  dropped integer not null default 0,
  accepted boolean not null default true,
  primary key (form_id, address)
);

-- The copies of `sent` within the last 24 hours.
create or replace function formdown_recent_copies(sent timestamptz[]) returns timestamptz[]
  language sql stable as $$
  select coalesce(array_agg(t order by t), '{}') from unnest(sent) t
   where t > now() - interval '24 hours'
$$;
