import type { z } from "zod";
import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";

/** One MCP tool: a described zod input, advice for the agent, hints, and a service call. */
export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  /** Written for an agent: when to use it, and what it cannot do. */
  description: string;
  input: S;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  run(ctx: AppContext, account: Account, args: z.output<S>): Promise<Record<string, unknown>>;
}

export const defineTool = <S extends z.ZodType>(tool: ToolDef<S>): ToolDef =>
  tool as unknown as ToolDef;

export const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/**
 * Extra content blocks a tool's result carries besides its JSON (e.g. chart images). Under a
 * symbol key, so neither the JSON text nor structuredContent repeats them.
 */
export const EXTRA_CONTENT = Symbol("extraContent");
export type ImageContent = { type: "image"; data: string; mimeType: string };
