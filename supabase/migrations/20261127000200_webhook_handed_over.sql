-- Deliveries handed over without a row (the embedded database; functions/webhooks/handover.ts).
-- On PGlite the database runs in the server's own process, so a delivery's two row writes (its
-- row in the submit, its outcome's update) cost that process more CPU than the POST itself. There
-- a submit writes no delivery row: the response is the durable record, and the sender writes
-- what each attempt did afterwards, in batches —
--   * the deliveries that got through at their first attempt: one row per webhook and batch here;
--   * the others (a retry due, a failure, one never attempted): a row in webhook_deliveries.
-- A process killed meanwhile loses nothing: at start-up the sender gives every response submitted
-- since `webhook_handover_mark.through` (less a margin) that has neither a delivery row nor a
-- place here a pending row (functions/webhooks/handed-over.ts). A delivery's id is derived from its
-- webhook and response (`webhook_delivery_id`), so that row carries the id of the attempt the kill
-- interrupted. Not used on Postgres, where several instances share the queue.
--
-- A place here is a response, its instant in ms since 1970 and the HTTP status. (Read as text, a uuid[] element costs PGlite some 2 µs and a
-- timestamptz[] one more; three uuid and timestamp arrays made a batch cost 12 µs a delivery,
-- these 4.)
create table webhook_delivered (
  webhook_id uuid not null,
  recorded_at timestamptz not null default now(),
  response_ids uuid[] not null,
  created_ms bigint[] not null,
  statuses integer[] not null
);
create index webhook_delivered_hook on webhook_delivered (webhook_id, recorded_at);

-- Every delivery of a response submitted before `through` has been recorded (less a margin).
create table webhook_handover_mark (
  one boolean primary key default true check (one),
  through timestamptz not null
);

create or replace function webhook_delivery_id(webhook uuid, response uuid) returns uuid
  language sql immutable as $$ select md5(webhook::text || response::text)::uuid $$;

-- Every delivery as one table, for the owner's list: the rows, and the batches' elements that no
-- row has taken over (a retry asked for by the owner writes a row with the same id).
create view webhook_delivery_log as
  select id, webhook_id, event, response_id, status, attempts, last_status, last_error,
         next_attempt_at, created_at
    from webhook_deliveries
  union all
  select u.id, b.webhook_id, 'response.created', u.response_id, 'delivered', 1, u.status, null,
         u.created_at, u.created_at
    from webhook_delivered b
    cross join lateral (
      select webhook_delivery_id(b.webhook_id, x.response_id) as id, x.response_id, x.status,
             to_timestamp(x.ms / 1000.0) as created_at
        from unnest(b.response_ids, b.created_ms, b.statuses) as x(response_id, ms, status)) u
   where not exists (select 1 from webhook_deliveries d where d.id = u.id);

create or replace function formdown_webhook_deleted() returns trigger
  language plpgsql as $$
begin
  delete from webhook_deliveries where webhook_id = old.id;
  delete from webhook_delivered where webhook_id = old.id;
  return null;
end $$;
