import type { CountSpec } from "../../../src/core/plan/plan.ts";
import type { AppContext } from "../../context.ts";

/**
 * Counts the answers each change of a plan touches, in ONE statement over the form's responses:
 * one aggregate with a `count(*) filter` per change, so the responses are read once however many
 * changes there are. A field's answers are the responses holding any of its ids (`?`); an
 * option's are those whose answer under one of them is, or (a list) holds, that label: the
 * payload contains `{"<id>": "<label>"}` or `{"<id>": ["<label>"]}` (`@>` on the whole payload
 * reads it in place; `payload -> id` would copy the answer out for every row first). The text
 * is assembled from the fixed fragments below; ids and labels travel as parameters only.
 */
export async function countChanges(
  ctx: AppContext,
  formId: string,
  specs: readonly (CountSpec | undefined)[],
): Promise<number[]> {
  const params: unknown[] = [formId];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const filters: string[] = [];
  const at: number[] = [];
  for (const spec of specs) {
    if (!spec || spec.keys.length === 0) {
      at.push(-1);
      continue;
    }
    const where =
      spec.value === undefined
        ? // `?` per id: `?|` takes its array apart again for every row
          spec.keys.map((k) => `payload ? ${p(k)}::text`).join(" or ")
        : spec.keys
            .map((k) => {
              const answer = spec.list ? [spec.value] : spec.value;
              return `payload @> ${p(JSON.stringify({ [k]: answer }))}::jsonb`;
            })
            .join(" or ");
    at.push(filters.length);
    filters.push(`count(*) filter (where ${where})::int`);
  }
  if (filters.length === 0) return specs.map(() => 0);
  const [row] = await ctx.db.query<{ n: number[] }>(
    `select array[${filters.join(", ")}]::int[] as n from responses where form_id = $1`,
    params,
  );
  return at.map((i) => (i === -1 ? 0 : Number(row?.n[i] ?? 0)));
}
