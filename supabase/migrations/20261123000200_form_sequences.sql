-- Each form numbers its responses from a sequence of its own. nextval takes no row lock, so
-- concurrent submits to one form no longer queue behind the forms row (every submit used to
-- update forms.response_count and hold its lock until commit). Counts are read from responses.
create or replace function formdown_form_seq(form uuid) returns text
  language sql immutable parallel safe
  as $$ select 'formdown_seq_' || replace(form::text, '-', '') $$;

create or replace function formdown_create_form_seq(form uuid, last_value bigint default 0) returns void
  language plpgsql as $$
begin
  execute format('create sequence if not exists %I', formdown_form_seq(form));
  if last_value > 0 then
    perform setval(formdown_form_seq(form)::regclass, last_value);
  end if;
end $$;

create or replace function formdown_drop_form_seq(form uuid) returns void
  language plpgsql as $$
begin
  execute format('drop sequence if exists %I', formdown_form_seq(form));
end $$;

select formdown_create_form_seq(id, response_count) from forms;
alter table forms drop column response_count;
