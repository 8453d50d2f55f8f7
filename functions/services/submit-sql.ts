// The submit's one statement (TECH.md §10): count, response, outbox and upload links written
// together. The forms row's update orders concurrent submits, so `seq` is unique per form and a
// milestone email is inserted exactly once. Parameters:
// $1 form id, $2 max_responses or null, $3 payload, $4 score, $5 idempotency key, $6 recipients,
// $7 immediate_count, $8 milestone counts, $9 upload URLs the payload references.
const BODY = `
  f as (
    update forms set response_count = response_count + 1
     where id = $1 and ($2::int is null or response_count < $2) LIMIT_GUARD
     returning response_count as seq, commit_sha
  ),
  r as (
    insert into responses (form_id, seq, payload, score, idempotency_key, commit_sha)
    select $1, f.seq, $3::jsonb, $4::jsonb, $5, f.commit_sha from f
    returning id, seq, submitted_at
  ),
  o as (
    insert into outbox (form_id, response_id, kind, milestone, recipients)
    select $1, r.id, 'response', null, $6::jsonb from r
     where r.seq <= $7 and jsonb_array_length($6::jsonb) > 0
    union all
    select $1, r.id, 'milestone', r.seq, $6::jsonb from r
     where r.seq = any($8::int[]) and jsonb_array_length($6::jsonb) > 0
  ),
  u as (
    update uploads set response_id = r.id from r
     where uploads.form_id = $1 and uploads.url = any($9::text[])
  )`;

/** Without a rate limit. */
export const SUBMIT_SQL = `with ${BODY.replace("LIMIT_GUARD", "")}
select r.id, r.seq, r.submitted_at, null::int as hits from r`;

/** With the per-IP-and-form limit counted in the same statement ($10 bucket, $11 limit). */
export const SUBMIT_LIMITED_SQL = `with rl as (
    insert into rate_limits (bucket, window_start, hits) values ($10, date_trunc('minute', now()), 1)
    on conflict (bucket, window_start) do update set hits = rate_limits.hits + 1
    returning hits
  ),
  ${BODY.replace("LIMIT_GUARD", "and (select hits from rl) <= $11")}
select r.id, r.seq, r.submitted_at, rl.hits from rl left join r on true`;
