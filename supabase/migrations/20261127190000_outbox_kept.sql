-- An email composed where no mail provider is configured (embedded mode) is kept in the outbox,
-- not sent: its own status, so the outbox and `formdown doctor` never call it sent (issue 47).
-- 'kept' ends a row's life like 'sent' does (the sender claims 'pending' rows only).
alter table outbox drop constraint if exists outbox_status_check;
alter table outbox add constraint outbox_status_check
  check (status in ('pending', 'sent', 'kept', 'failed'));
-- the ones "sent" to the outbox before: the sender marked them with this provider id
update outbox set status = 'kept' where status = 'sent' and provider_message_id = 'outbox';
