// One statement per flush: add this instance's new hits to each bucket's row for the window, and
// read the totals of the buckets it has no new hits for but that are still under their limit
// (the other instances may have counted them since). Rows are written in bucket order, so two
// instances flushing the same buckets at once wait for each other rather than deadlock.
export const FLUSH = `with added as (
    insert into rate_limits as r (bucket, window_start, hits)
    select t.bucket, $2::timestamptz, t.hits
      from unnest($1::text[], $3::int[]) as t(bucket, hits)
     order by t.bucket
    on conflict (bucket, window_start) do update set hits = r.hits + excluded.hits
    returning r.bucket, r.hits)
  select bucket, hits from added
  union all
  select bucket, hits from rate_limits where window_start = $2::timestamptz and bucket = any($4::text[])`;
