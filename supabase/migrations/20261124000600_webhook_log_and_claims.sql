-- Delivered and failed deliveries are kept for FORMDOWN_WEBHOOK_RETENTION_DAYS, then the sender's
-- sweep removes them (functions/webhooks/queue.ts pruneDeliveries). A BRIN index finds the old
-- ones: rows arrive in created_at order, so it stays a few pages, costs a submit next to nothing,
-- and (being summarizing) never stops an outcome's update from being a HOT one.
create index webhook_deliveries_created on webhook_deliveries using brin (created_at);

-- A claim takes each webhook's due deliveries up to that receiver's share of the sender's slots
-- (functions/webhooks/queue.ts claimDeliveries), one index probe per webhook: a receiver with
-- every slot busy is left out without walking its backlog, however long a hang has made it.
drop index webhook_deliveries_due;
create index webhook_deliveries_due on webhook_deliveries (webhook_id, next_attempt_at)
  where status = 'pending';
