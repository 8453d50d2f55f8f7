-- Helpers for CSV exports that Postgres writes itself (COPY … TO STDOUT, see functions/insights).
-- A cell that a spreadsheet would run as a formula gets a leading quote.
create or replace function formdown_cell(v text) returns text
  language sql immutable parallel safe
  as $$ select case when left(v, 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || v else v end $$;

-- A checkbox or ranking answer: its items joined with "; ".
create or replace function formdown_list(v jsonb) returns text
  language sql immutable parallel safe
  as $$ select case when jsonb_typeof(v) = 'array'
                    then array_to_string(array(select jsonb_array_elements_text(v)), '; ')
                    else v #>> '{}' end $$;
