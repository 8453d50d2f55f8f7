import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppContext } from "../context.ts";
import { callTool } from "../mcp/server.ts";
import type { Account } from "../services/accounts.ts";
import { clientFailure, errorHandler, failureResponse } from "./errors.ts";

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
  code: "ECONNREFUSED",
});

describe("a database that cannot be reached", () => {
  it("is a 503 unavailable with Retry-After over HTTP, without the driver's message", async () => {
    for (const code of ["ECONNREFUSED", "57P01", "57P03", "CONNECTION_CLOSED", "CONNECT_TIMEOUT"]) {
      const failure = clientFailure(Object.assign(new Error(`secret ${code}`), { code }));
      expect(failure?.code).toBe("unavailable");
      const res = failureResponse(failure!);
      expect(res.status).toBe(503);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      const body = (await res.json()) as { error: string; code: string };
      expect(body.code).toBe("unavailable");
      expect(body.error).not.toContain("secret");
    }
    expect(clientFailure(new Error("a bug of ours"))).toBeNull();
  });

  it("is an MCP tool error with code unavailable, not internal_error", async () => {
    const logged: string[] = [];
    const ctx = {
      db: { kind: "postgres", query: () => Promise.reject(refused) },
      log: { info: () => {}, error: (m: string) => logged.push(m) },
    } as unknown as AppContext;
    const result = await callTool(
      ctx,
      { id: "a", handler: "me", scope: "admin", forms: null } as Account,
      "list_forms",
      {},
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: "unavailable" });
    expect(logged).toEqual([]);
  });
});

describe("a bug of ours", () => {
  it("is a bare 500 whose request id the client gets and the one log line carries (SPEC §22)", async () => {
    const lines: { msg: string; error: unknown; fields?: Record<string, unknown> }[] = [];
    const app = new Hono();
    app.onError(
      errorHandler({
        info: () => {},
        error: (msg, error, fields) => lines.push({ msg, error, fields }),
      }),
    );
    app.get("/boom", () => {
      throw new Error("a secret detail");
    });
    const res = await app.request("/boom");
    expect(res.status).toBe(500);
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await res.json()) as { error: string; code: string };
    expect(body).toEqual({
      code: "internal_error",
      error: `Something went wrong on our side (request ${id}).`,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toBe(`request ${id} GET /boom failed`);
    expect(lines[0]!.fields).toEqual({ request_id: id });
    expect((lines[0]!.error as Error).message).toBe("a secret detail");
  });
});
