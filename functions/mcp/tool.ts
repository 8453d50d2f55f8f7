import type { z } from "zod";
import type { AuditedOperation } from "../audit/actions.ts";
import type { AppContext } from "../context.ts";
import type { ROUTE_SCOPES } from "../route-scopes.ts";
import type { Scope } from "../scopes.ts";
import type { Account } from "../services/accounts.ts";

/**
 * One MCP tool, one file under `tools/`: a described zod input, a zod output (served as the
 * tool's `outputSchema`; `structuredContent` must validate against it), advice for the agent,
 * hints, and a service call.
 *
 * The pattern for a new tool: `output: z.object({...})` naming the keys `run` answers, nested
 * objects as `z.looseObject({...})` or `z.record(z.string(), z.unknown())` when their shape is
 * someone else's (a form definition, a response payload). A tool that answers nothing worth
 * naming says so: `output: z.object({ deleted: z.boolean() })`. Error answers need no schema:
 * every outputSchema also admits `{error, code}` (see json-schema.ts).
 */
export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  /** Written for an agent: when to use it, and what it cannot do; short, one example where it helps. */
  description: string;
  input: S;
  output: z.ZodType;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint: boolean;
  };
  /** `_meta` in tools/list: MCP Apps' `ui` (SPEC §18), a few bytes of the 20,000. */
  meta?: Record<string, unknown>;
  /**
   * What the key needs and what the audit log calls a call (SPEC §23, §26): the REST operation
   * the tool does too, by its route-scopes.ts name, or, for a tool with no such twin, its own.
   */
  grant: { rest: keyof typeof ROUTE_SCOPES } | { scope: Scope; audit?: AuditedOperation };
  run(ctx: AppContext, account: Account, args: z.output<S>): Promise<Record<string, unknown>>;
}

export const defineTool = <S extends z.ZodType>(tool: ToolDef<S>): ToolDef =>
  tool as unknown as ToolDef;

/** Read-only tools: destructive/idempotent hints only mean something for tools that write. */
export const READ = { readOnlyHint: true, openWorldHint: false };
/** idempotentHint is left out where it is false: that is its default (MCP ToolAnnotations). */
export const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  openWorldHint: false,
};
/** What deletes or revokes: doing it twice is doing it once. */
export const DELETE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * Extra content blocks a tool's result carries besides its JSON (e.g. the HTML report). Under a
 * symbol key, so neither the JSON text nor structuredContent repeats them.
 */
export const EXTRA_CONTENT = Symbol("extraContent");
export type TextContent = { type: "text"; text: string };
