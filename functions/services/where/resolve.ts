import { unwrap } from "../../../src/core/errors.ts";
import type { Lineage } from "../../../src/core/plan/lineage.ts";
import type { Form } from "../../../src/core/schema.ts";
import { checkWhere, parseWhereParam, type WhereCondition } from "../../../src/core/where/where.ts";
import type { AppContext } from "../../context.ts";
import { formLineage } from "../versions/reads.ts";

/**
 * A `where` as a surface received it (REST: the query's JSON text; MCP: the array) checked
 * against the form: 400 `invalid_request` naming the bad condition. The form's lineage is read
 * only when there are conditions (it maps earlier ids and labels onto the live ones).
 */
export async function resolveWhere(
  ctx: AppContext,
  row: { id: string; definition: Form },
  raw: unknown,
  lines?: Lineage,
): Promise<WhereCondition[]> {
  const value = typeof raw === "string" ? unwrap(parseWhereParam(raw)) : raw;
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0))
    return [];
  return unwrap(checkWhere(row.definition, lines ?? (await formLineage(ctx, row)), value));
}
