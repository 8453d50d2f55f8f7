import { Server } from "@modelcontextprotocol/server";
import type { Failure } from "../../src/core/errors.ts";
import { formIssues } from "../../src/core/validate-form.ts";
import type { AppContext } from "../context.ts";
import { holdsUnstorableText } from "../http/body.ts";
import { clientFailure, UNSTORABLE_TEXT_MESSAGE } from "../http/errors.ts";
import type { Account } from "../services/accounts.ts";
import { DESCRIPTION, inputJsonSchema, SERVER_INFO, TOOLS } from "./registry.ts";
import { EXTRA_CONTENT, type ImageContent } from "./tool.ts";

type ToolResult = {
  content: ({ type: "text"; text: string } | ImageContent)[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
};

const result = (value: Record<string, unknown>, isError = false): ToolResult => ({
  content: [
    { type: "text", text: JSON.stringify(value, null, 2) },
    ...((value as { [EXTRA_CONTENT]?: ImageContent[] })[EXTRA_CONTENT] ?? []),
  ],
  structuredContent: value,
  ...(isError ? { isError: true } : {}),
});

const failure = (f: Failure) =>
  result({ error: f.error, code: f.code, ...(f.details ? { details: f.details } : {}) }, true);

/** Runs one tool call: arguments checked by the tool's zod schema, errors as `{error, code}`. */
export async function callTool(
  ctx: AppContext,
  account: Account,
  name: string,
  args: unknown,
): Promise<ToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) return failure({ code: "not_found", error: `No tool named "${name}".` });
  if (holdsUnstorableText(args))
    return failure({ code: "invalid_request", error: UNSTORABLE_TEXT_MESSAGE });
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    return failure({
      code: "validation_failed",
      error: `The arguments of ${name} are not valid.`,
      details: formIssues(parsed.error),
    });
  }
  try {
    return result(await tool.run(ctx, account, parsed.data));
  } catch (error) {
    const known = clientFailure(error);
    if (known) return failure(known);
    const id = crypto.randomUUID();
    ctx.log.error(`mcp ${name} failed (request ${id})`, error);
    return failure({
      code: "internal_error",
      error: `Something went wrong on our side (request ${id}).`,
    });
  }
}

/** A fresh low-level MCP server for one request, acting for one account. */
export function createMcpServer(ctx: AppContext, account: Account): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: DESCRIPTION,
  });
  server.setRequestHandler("tools/list", async () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: inputJsonSchema(t) as { type: "object" },
      annotations: { title: t.title, ...t.annotations },
    })),
  }));
  server.setRequestHandler("tools/call", async (request) =>
    callTool(ctx, account, request.params.name, request.params.arguments),
  );
  return server;
}
