import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { boundedFailure } from "../../src/core/bounded-failure.ts";
import type { Failure } from "../../src/core/errors.ts";
import { auditDetail, recordAudit } from "../audit/log.ts";
import type { AppContext } from "../context.ts";
import { holdsUnstorableText, ownTurn } from "../http/body.ts";
import { clientFailure, UNSTORABLE_TEXT_MESSAGE } from "../http/errors.ts";
import { needForm, needScope } from "../scopes.ts";
import type { Account } from "../services/accounts.ts";
import { argumentFailure, argumentNames, inToolWords } from "./errors.ts";
import { inputJsonSchema, outputJsonSchema } from "./json-schema.ts";
import { analyzeResponsesPrompt, PROMPTS } from "./prompts.ts";
import { PROTOCOL_VERSIONS } from "./protocol.ts";
import { INSTRUCTIONS, SERVER_INFO, TOOL_ACTIONS, TOOL_SCOPES, TOOLS } from "./registry.ts";
import { listResources, RESOURCE_TEMPLATES, readResource } from "./resources.ts";
import type { ToolDef } from "./tool.ts";
import { EXTRA_CONTENT, type TextContent } from "./tool.ts";

type ToolResult = {
  content: TextContent[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
};

const result = (value: Record<string, unknown>, isError = false): ToolResult => ({
  content: [
    { type: "text", text: JSON.stringify(value) },
    ...((value as { [EXTRA_CONTENT]?: TextContent[] })[EXTRA_CONTENT] ?? []),
  ],
  structuredContent: value,
  ...(isError ? { isError: true } : {}),
});

const failure = (given: Failure) => {
  // at most 100 details and 64 KB, as REST's (SPEC §23)
  const f = boundedFailure(given);
  const worded = inToolWords(f);
  return result(
    {
      error: worded.error,
      code: worded.code,
      ...(f.details ? { details: f.details } : {}),
      ...(f.plan !== undefined ? { details: f.plan } : {}),
    },
    true,
  );
};

/** readOnlyHint false is the protocol's default: said by leaving it out (336 bytes of tools/list). */
const listedHints = ({ readOnlyHint, ...rest }: ToolDef["annotations"]) =>
  readOnlyHint ? { readOnlyHint, ...rest } : rest;

/**
 * The tools/list entries, built once: they depend only on the registry. 30 tools fit SPEC §14's
 * 20,000 bytes without their display titles (743 bytes): a host shows the name (snake_case words)
 * instead, and the server card (discovery.ts) still gives each tool's title.
 */
let listed: object[] | null = null;
const toolList = () =>
  (listed ??= TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: inputJsonSchema(t),
    outputSchema: outputJsonSchema(t),
    annotations: listedHints(t.annotations),
    ...(t.meta ? { _meta: t.meta } : {}),
  })));

/**
 * A tool call that read responses or changed something, written to the audit log once it
 * succeeded (SPEC §26): the one place for every tool, as requireKey is for REST.
 */
async function auditTool(
  ctx: AppContext,
  account: Account,
  name: string,
  args: unknown,
  answer: Record<string, unknown>,
): Promise<void> {
  const op = TOOL_ACTIONS[name];
  if (!op) return;
  const values = (args ?? {}) as Record<string, unknown>;
  const named = op.form === "answer" ? answer.slug : values.slug;
  const form =
    typeof named === "string" ? named : typeof values.slug === "string" ? values.slug : null;
  await recordAudit(ctx, account, { action: op.action, form, detail: auditDetail(values) });
}

/**
 * Runs one tool call: arguments checked by the tool's zod schema (every problem at once, with
 * what came), errors as `{error, code}` in the tool's words. A tool that does not exist is a
 * protocol error (-32602) naming the tools that do.
 */
export async function callTool(
  ctx: AppContext,
  account: Account,
  name: string,
  args: unknown,
): Promise<ToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Unknown tool "${name}". The tools are: ${TOOLS.map((t) => t.name).join(", ")}.`,
    );
  // what the key may do (SPEC §23): the tool's scope, then the form it names
  try {
    needScope(account, TOOL_SCOPES[name] ?? "admin", `The tool ${name}`);
    const slug = (args as { slug?: unknown } | undefined)?.slug;
    if (typeof slug === "string") needForm(account, slug);
  } catch (error) {
    return failure(clientFailure(error)!);
  }
  // each call of a batch in a turn of the event loop of its own: 30 test_form calls of a heavy
  // form in one message ran back to back and held the loop 2.8 s (third review)
  await ownTurn();
  if (holdsUnstorableText(args))
    return failure({ code: "invalid_request", error: UNSTORABLE_TEXT_MESSAGE });
  const parsed = tool.input.safeParse(args ?? {}, { reportInput: true });
  const known = argumentNames(tool.input);
  const extra =
    known && args && typeof args === "object" && !Array.isArray(args)
      ? Object.keys(args).filter((key) => !known.includes(key))
      : [];
  if (!parsed.success || extra.length > 0)
    return failure(argumentFailure(name, parsed.success ? null : parsed.error, extra, known ?? []));
  try {
    const answer = await tool.run(ctx, account, parsed.data);
    await auditTool(ctx, account, name, args, answer);
    return result(answer);
  } catch (error) {
    const mapped = clientFailure(error);
    if (mapped) return failure(mapped);
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
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: INSTRUCTIONS,
    supportedProtocolVersions: PROTOCOL_VERSIONS,
  });
  // the SDK's discover lists only the 2026 revisions (and the HTTP entry installs its own
  // handler after this factory returns), so the answer is amended where that handler reads it
  const sdk = server as unknown as { _ondiscover(): Record<string, unknown> };
  const discover = sdk._ondiscover.bind(server);
  sdk._ondiscover = () => ({ ...discover(), supportedVersions: PROTOCOL_VERSIONS });
  server.setRequestHandler("tools/list", async () => ({ tools: toolList() as never }));
  server.setRequestHandler("tools/call", async (request) =>
    callTool(ctx, account, request.params.name, request.params.arguments),
  );
  server.setRequestHandler("resources/list", async () => ({
    resources: await listResources(ctx, account),
  }));
  server.setRequestHandler("resources/templates/list", async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler("resources/read", async (request) => {
    const contents = await readResource(ctx, account, request.params.uri);
    if (!contents)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No resource ${request.params.uri}: read formdown://schema/form or formdown://forms/<slug> of one of your forms (resources/list names them).`,
      );
    return { contents: [contents] };
  });
  server.setRequestHandler("prompts/list", async () => ({ prompts: PROMPTS }));
  server.setRequestHandler("prompts/get", async (request) => {
    if (request.params.name !== "analyze_responses")
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown prompt "${request.params.name}". The prompts are: analyze_responses.`,
      );
    if (!request.params.arguments?.slug)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "analyze_responses needs slug.");
    return analyzeResponsesPrompt(request.params.arguments);
  });
  return server;
}
