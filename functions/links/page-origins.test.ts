import { describe, expect, it } from "vitest";
import { pageOrigins } from "./page-origins.ts";

const API = "https://api.example.com";
const PAGES = "https://forms.example.com";

/** A pages host whose answers the test sets; counts what it was asked. */
function host() {
  const state = {
    answer: (): Response | Promise<Response> => new Response(null, { status: 404 }),
    asked: 0,
  };
  const fetch = (async (url: string) => {
    state.asked++;
    expect(url).toBe(`${PAGES}/formdown-pages.json`);
    return state.answer();
  }) as unknown as typeof globalThis.fetch;
  return { state, fetch };
}
const quiet = { info: () => {} };

describe("which origin serves a form's page (SPEC §22)", () => {
  it("names the static host for a form its build holds, the API origin for any other", async () => {
    const { state, fetch } = host();
    state.answer = () => Response.json({ pages: ["@acme/site"] });
    const pages = pageOrigins({ baseUrl: API, publicBaseUrl: PAGES }, quiet, { fetch });
    await pages.refresh();
    expect(pages.of("acme", "site")).toBe(PAGES);
    expect(pages.of("acme", "made-over-rest")).toBe(API);
    expect(pages.of("other", "site")).toBe(API);
  });

  it("takes a server that renders every form at its word", async () => {
    const { state, fetch } = host();
    state.answer = () => Response.json({ every_form: true });
    const pages = pageOrigins({ baseUrl: API, publicBaseUrl: PAGES }, quiet, { fetch });
    await pages.refresh();
    expect(pages.of("acme", "anything")).toBe(PAGES);
  });

  it("links the API origin for every form when the host has no list, and says so once", async () => {
    const { fetch } = host();
    const said: string[] = [];
    const pages = pageOrigins(
      { baseUrl: API, publicBaseUrl: PAGES },
      { info: (m) => said.push(m) },
      { fetch, ttlMs: 0 },
    );
    await pages.refresh();
    await pages.refresh();
    expect(pages.of("acme", "site")).toBe(API);
    expect(said).toEqual([
      `Note: ${PAGES}/formdown-pages.json answered 404; forms without a page there link to the API origin, which renders them.`,
    ]);
  });

  it("keeps the last list while the host does not answer, and reads again once it is stale", async () => {
    const { state, fetch } = host();
    state.answer = () => Response.json({ pages: ["@acme/site"] });
    const pages = pageOrigins({ baseUrl: API, publicBaseUrl: PAGES }, quiet, { fetch, ttlMs: 0 });
    await pages.refresh();
    state.answer = () => Promise.reject(new Error("connect ECONNREFUSED"));
    await pages.refresh();
    expect(pages.of("acme", "site")).toBe(PAGES);
    // a stale list is read again by the next lookup, which answers from what it holds meanwhile
    state.answer = () => Response.json({ pages: ["@acme/site", "@acme/later"] });
    const before = state.asked;
    expect(pages.of("acme", "later")).toBe(API);
    await pages.refresh();
    expect(state.asked).toBeGreaterThan(before);
    expect(pages.of("acme", "later")).toBe(PAGES);
  });

  it("asks nothing when the pages and the API share one origin", async () => {
    const { state, fetch } = host();
    const pages = pageOrigins({ baseUrl: API, publicBaseUrl: API }, quiet, { fetch });
    await pages.refresh();
    expect(pages.of("acme", "site")).toBe(API);
    expect(state.asked).toBe(0);
  });
});
