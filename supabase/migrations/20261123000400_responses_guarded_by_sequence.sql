-- Responses no longer hold a foreign key to their form. Postgres checks such a key by locking the
-- form's row (FOR KEY SHARE) in every inserting transaction: under concurrent submits to one form
-- that one row took a multixact lock and a WAL record per response (pgbench, 16 clients: the
-- INSERT ran at 0.70× of its rate without the key). The form's sequence guards integrity instead:
--   * it is created in the same statement as the form (the trigger below), and a response can only
--     be written through nextval on it (functions/services/submit-sql.ts, submit-batch.ts);
--   * nextval holds a lock on the sequence until the submit commits, and deleting the form drops
--     the sequence first, which waits for every submit in flight; then the form's responses are
--     deleted, those just committed among them. A submit arriving later finds no sequence and
--     fails, so no response can outlive its form — the same guarantee as ON DELETE CASCADE.
alter table responses drop constraint if exists responses_form_id_fkey;

create or replace function formdown_form_created() returns trigger
  language plpgsql as $$
begin
  perform formdown_create_form_seq(new.id);
  return null;
end $$;

create or replace function formdown_form_deleted() returns trigger
  language plpgsql as $$
begin
  perform formdown_drop_form_seq(old.id);
  delete from responses where form_id = old.id;
  return null;
end $$;

create trigger forms_created after insert on forms
  for each row execute function formdown_form_created();
create trigger forms_deleted after delete on forms
  for each row execute function formdown_form_deleted();
