-- A scale's distance between values is now `increment`; `step` on a scale, as on every field,
-- is the page of a multi-step form (SPEC §4). Stored definitions written before the rename carry
-- the old `step` (usually the default 1, which would now read as "page 1"): move it across.
update forms
   set definition = jsonb_set(
         definition,
         '{fields}',
         (select jsonb_agg(
                   case when f ->> 'type' = 'scale' and f ? 'step'
                        then (f - 'step') || jsonb_build_object('increment', f -> 'step')
                        else f end
                   order by n)
            from jsonb_array_elements(definition -> 'fields') with ordinality as e(f, n)))
 where exists (select 1 from jsonb_array_elements(definition -> 'fields') as e(f)
                where f ->> 'type' = 'scale' and f ? 'step');
