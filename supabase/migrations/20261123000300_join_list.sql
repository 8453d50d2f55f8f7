-- A list answer (checkbox, ranking) as the text a CSV cell shows: its items in order, joined
-- with "; ", every JSON escape decoded. The CSV export calls it only for lists whose jsonb text
-- holds an escape; the common case is cut out of the text inline (functions/insights/copy-csv.ts).
create or replace function formdown_join_list(items jsonb) returns text
  language sql immutable parallel safe
  as $$ select string_agg(e.value, '; ' order by e.n) from jsonb_array_elements_text(items) with ordinality as e(value, n) $$;
