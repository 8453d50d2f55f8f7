import type { LogicForm } from "../../../src/core/logic/compiled.ts";
import { logicWeight, TURN_STEPS } from "../../../src/core/logic/weight.ts";
import { pathChanges } from "../../../src/core/plan/logic.ts";
import type { CountSpec } from "../../../src/core/plan/plan.ts";
import type { AppContext } from "../../context.ts";
import { binder } from "../../db/bind.ts";
import { ownTurn } from "../../http/body.ts";

/**
 * Counts the answers each change of a plan touches, in ONE statement over the form's responses:
 * one aggregate with a `count(*) filter` per change, so the responses are read once however many
 * changes there are. What each filter costs is reading the payload: every jsonb operator copies
 * the row's (short) payload before it reads it, so each filter makes as few calls as it can. A
 * field's answers are the responses holding one of its ids: `?` for one id, `?|` for several
 * (one copy instead of one per id). An option's are those whose answer under one of its ids is
 * that label (`->> id = label`: a string compared as text, not a jsonb value built and compared
 * as `@>` or `-> id = '"label"'` would) or, for a list, holds it (`-> id ? label`). Measured on a
 * million responses: `?|` of two ids 0.8× the two `?`, `->>` 0.65× `@>`, `-> ?` 0.75× `@>` of a
 * list. The text is assembled from the fixed fragments below; ids and labels travel as parameters.
 */
export async function countChanges(
  ctx: AppContext,
  formId: string,
  specs: readonly (CountSpec | undefined)[],
  /** The live and the new definition, for the changes counted by path (SPEC §24). */
  forms?: { old: LogicForm; next: LogicForm },
): Promise<number[]> {
  const byPath = specs.some((s) => s?.paths) && forms ? await changedPaths(ctx, formId, forms) : 0;
  const counted = await countAnswers(
    ctx,
    formId,
    specs.map((s) => (s?.paths ? undefined : s)),
  );
  return counted.map((n, i) => (specs[i]?.paths ? byPath : n));
}

/** Responses read per batch when their paths are compared. */
const BATCH = 1000;

/**
 * The real responses whose path (the fields shown), ending or variables differ between the live
 * definition and the new one: each walked twice by the core (the payload holds what its path
 * showed), in batches by id, so memory stays flat.
 */
async function changedPaths(
  ctx: AppContext,
  formId: string,
  { old, next }: { old: LogicForm; next: LogicForm },
): Promise<number> {
  let changed = 0;
  let after: string | null = null;
  // a response costs two walks: the loop is let go before each turn's worth of them (a form's
  // variables may make a walk 80 ms, and a batch is a thousand responses), and in the line of
  // turns (http/body.ts): plans that resumed together ran back to back
  const cost = logicWeight(old) + logicWeight(next);
  let work = TURN_STEPS;
  for (;;) {
    const rows: { id: string; payload: Record<string, unknown> }[] = await ctx.db.query(
      `select id, payload from responses where form_id = $1 and not test
          and ($2::uuid is null or id > $2::uuid) order by id limit ${BATCH}`,
      [formId, after],
    );
    for (const r of rows) {
      if (work + cost > TURN_STEPS) {
        await ownTurn();
        work = 0;
      }
      if (pathChanges(old, next, r.payload)) changed++;
      work += cost;
    }
    if (rows.length < BATCH) return changed;
    after = rows.at(-1)!.id;
  }
}

async function countAnswers(
  ctx: AppContext,
  formId: string,
  specs: readonly (CountSpec | undefined)[],
): Promise<number[]> {
  const params: unknown[] = [formId];
  const p = binder(params);
  const filters: string[] = [];
  const at: number[] = [];
  for (const spec of specs) {
    // a retention change (SPEC §25): the responses its next run deletes
    if (spec?.olderThanDays !== undefined) {
      at.push(filters.length);
      filters.push(
        `count(*) filter (where submitted_at < now() - make_interval(days => ${p(spec.olderThanDays)}::int))::int`,
      );
      continue;
    }
    if (!spec || spec.keys.length === 0) {
      at.push(-1);
      continue;
    }
    const where =
      spec.value === undefined
        ? spec.keys.length === 1
          ? `payload ? ${p(spec.keys[0])}::text`
          : `payload ?| ${p(spec.keys)}::text[]`
        : spec.keys
            .map((k) =>
              spec.list
                ? `payload -> ${p(k)}::text ? ${p(spec.value)}::text`
                : `payload ->> ${p(k)}::text = ${p(spec.value)}::text`,
            )
            .join(" or ");
    at.push(filters.length);
    filters.push(`count(*) filter (where ${where})::int`);
  }
  if (filters.length === 0) return specs.map(() => 0);
  const [row] = await ctx.db.query<{ n: number[] }>(
    // real responses only: a test answer (SPEC §16) is no one's answer to lose
    `select array[${filters.join(", ")}]::int[] as n from responses where form_id = $1 and not test`,
    params,
  );
  return at.map((i) => (i === -1 ? 0 : Number(row?.n[i] ?? 0)));
}
