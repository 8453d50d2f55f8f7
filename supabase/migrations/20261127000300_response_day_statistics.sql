-- How many groups a form's days make, for the planner. The funnel, the stats and the report group
-- a form's responses by UTC day (and by the seconds taken); without statistics on that expression
-- the planner guessed one group per row, and sorted a million rows (to disk, past work_mem)
-- where a hash of a few hundred groups does: the first report of 1,000,000 responses spent
-- 500 ms in that statement, 180 ms with these (bench/export.ts). ANALYZE fills them, as it does a
-- column's (autovacuum on Postgres, functions/db/embedded-upkeep.ts on PGlite).
create statistics if not exists responses_day_seconds (ndistinct)
  on date_bin('1 day', submitted_at, '2000-01-01T00:00:00Z'), seconds from responses;
