-- Webhooks (SPEC §11): an owner's endpoints per form, and the deliveries queue the sender drains.
create table webhooks (
  id uuid primary key default gen_random_uuid(),
  form_id uuid not null references forms(id) on delete cascade,
  url text not null,
  events text[] not null,
  -- the signing secret, AES-GCM encrypted with the server's webhook key (functions/webhooks/secrets.ts)
  secret text not null,
  created_at timestamptz not null default now()
);
create index webhooks_form on webhooks (form_id, created_at);

-- One row per event and webhook. `response.created` rows are written by the submit statement
-- itself, so an acknowledged response always has its delivery. No foreign key to webhooks: the
-- check would lock the webhook's row in every submit (see migration 000400); the trigger below
-- removes a deleted webhook's deliveries, and the sender skips any a racing submit left behind.
create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  webhook_id uuid not null,
  event text not null check (event in ('response.created', 'response.deleted', 'webhook.test')),
  response_id uuid,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  last_status integer,
  last_error text,
  next_attempt_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_hook on webhook_deliveries (webhook_id, created_at desc, id desc);
-- only undelivered ones: deleting a response cancels those (functions/services/delete-responses.ts),
-- and a delivered or failed row then costs no entry here when its outcome is written
create index webhook_deliveries_response on webhook_deliveries (response_id) where status = 'pending';

create or replace function formdown_webhook_deleted() returns trigger
  language plpgsql as $$
begin
  delete from webhook_deliveries where webhook_id = old.id;
  return null;
end $$;

create trigger webhooks_deleted after delete on webhooks
  for each row execute function formdown_webhook_deleted();
