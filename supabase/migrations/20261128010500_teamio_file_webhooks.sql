-- Webhooks kept in the form file (SPEC §26): `source = 'file'` rows are the file's, reconciled
-- on each deploy by `file_key` (the URL, or the preset and its environment variable's name) and
-- removed when the file no longer names them; `kind` picks the body (slack, sheet or the event).
alter table webhooks add column source text not null default 'api' check (source in ('api', 'file'));
alter table webhooks add column kind text not null default 'event' check (kind in ('event', 'slack', 'sheet'));
alter table webhooks add column file_key text;
create unique index webhooks_file_key on webhooks (form_id, file_key) where file_key is not null;
