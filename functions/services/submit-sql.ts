// The submit's one statement (TECH.md §10): the response, and — only when the form needs them —
// outbox rows, upload links and the rate-limit counter, written together. `seq` comes from the
// form's own sequence (unique, lock-free; a failed submit leaves a gap). A milestone email is
// inserted when the count reaches it, and the unique index on (form, milestone) keeps it to
// exactly one even when concurrent submits race past it; any later submit fills in a milestone
// a failed one skipped. The text is assembled from the fixed fragments below (never from
// input), so a form without notifications or uploads runs a leaner plan.

export interface SubmitWrite {
  formId: string;
  maxResponses: number | null;
  payload: string;
  score: string | null;
  idempotencyKey: string | null;
  /** Recipients, immediate count and milestone counts; null when no email can be due. */
  outbox: { recipients: string; immediate: number; milestones: number[] } | null;
  uploads: string[];
  /** The per-IP-and-form bucket and its limit; null when the limiter is off. */
  limit: { bucket: string; max: number } | null;
}

export function submitStatement(w: SubmitWrite): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const form = p(w.formId);
  const parts: string[] = [];
  let guard = "";
  if (w.limit) {
    parts.push(`rl as (
      insert into rate_limits (bucket, window_start, hits) values (${p(w.limit.bucket)}, date_trunc('minute', now()), 1)
      on conflict (bucket, window_start) do update set hits = rate_limits.hits + 1 returning hits)`);
    guard = ` and (select hits from rl) <= ${p(w.limit.max)}`;
  }
  parts.push(`s as (select nextval(formdown_form_seq(${form})::regclass) as seq)`);
  parts.push(`r as (
      insert into responses (form_id, seq, payload, score, idempotency_key, commit_sha)
      select ${form}, s.seq, ${p(w.payload)}::jsonb, ${p(w.score)}::jsonb, ${p(w.idempotencyKey)},
             (select commit_sha from forms where id = ${form})
        from s where (${p(w.maxResponses)}::int is null or s.seq <= ${`$${params.length}`})${guard}
      returning id, seq, submitted_at)`);
  if (w.outbox) {
    const to = p(w.outbox.recipients);
    parts.push(`o as (
      insert into outbox (form_id, response_id, kind, milestone, recipients)
      select ${form}, r.id, 'response', null, ${to}::jsonb from r where r.seq <= ${p(w.outbox.immediate)}
      union all
      select ${form}, r.id, 'milestone', m, ${to}::jsonb from r, unnest(${p(w.outbox.milestones)}::int[]) m where m <= r.seq
      on conflict (form_id, milestone) where kind = 'milestone' do nothing)`);
  }
  if (w.uploads.length > 0) {
    parts.push(`u as (
      update uploads set response_id = r.id from r where uploads.form_id = ${form} and uploads.url = any(${p(w.uploads)}::text[]))`);
  }
  const select = w.limit
    ? "select r.id, rl.hits from rl left join r on true"
    : "select r.id, null::int as hits from r";
  return { text: `with ${parts.join(",\n")}\n${select}`, params };
}
