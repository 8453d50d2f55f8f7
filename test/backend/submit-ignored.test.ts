// A submit names the answers it did not store (SPEC §18): an answer to a field its show_if
// hides is dropped from the response, and the 201 says so in `ignored` instead of silently.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../functions/openapi.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  s = await startTestServer();
  api = client(s.url, s.apiKey);
  const created = await api("POST", "/api/forms", {
    body: {
      title: "Ignored",
      slug: "ignored",
      humanness: false,
      fields: [
        { id: "likes", type: "yes_no", required: true },
        { id: "why", type: "text", show_if: { field: "likes", op: "eq", value: "no" } },
      ],
    },
  });
  expect(created.status).toBe(201);
});
afterAll(() => s?.close());

describe("a submit says which answers it did not store", () => {
  it("answers ignored: [why] for an answer to a field hidden by show_if, and stores none of it", async () => {
    const res = await api("POST", "/api/forms/ignored/submit", {
      key: null,
      body: { fields: { likes: "yes", why: "it was slow" } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "received", ignored: ["why"] });
    const stored = await api("GET", `/api/forms/ignored/responses/${res.body.response_id}`);
    expect(stored.body.payload).toEqual({ likes: "yes" });
  });

  it("says nothing was ignored when every answer was stored", async () => {
    const res = await api("POST", "/api/forms/ignored/submit", {
      key: null,
      body: { fields: { likes: "no", why: "it was slow" } },
    });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty("ignored");
  });

  it("documents ignored in the OpenAPI answer of the submit", async () => {
    const op = (await openApiDocument("http://x")).paths["/api/forms/{slug}/submit"] as any;
    const schema = op.post.responses[201].content["application/json"].schema;
    expect(schema.properties.ignored).toMatchObject({ type: "array", items: { type: "string" } });
  });
});
