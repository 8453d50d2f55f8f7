import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smokeCheck } from "./smoke.ts";

// a server whose health is fine, one page answers, one does not, and one only from its third ask
let asked = 0;
const server = createServer((req, res) => {
  if (req.url === "/@me/late") asked++;
  const late = req.url === "/@me/late" && asked < 3;
  res.writeHead(req.url === "/@me/gone" || late ? 404 : 200).end("ok");
});
const now = { waitMs: 0 };
let url = "";
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("the deploy's smoke check", () => {
  it("passes when the health check and every page answer 200", async () => {
    expect(await smokeCheck({ url } as never, [`${url}/@me/hello`], now)).toEqual([]);
  });

  it("names each page that did not answer 200, and a server that does not answer at all", async () => {
    const pages = [`${url}/@me/hello`, `${url}/@me/gone`];
    expect(await smokeCheck({ url } as never, pages, now)).toEqual([
      `${url}/@me/gone answered 404`,
    ]);
    // a port nothing listens on any more
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", r));
    const down = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
    await new Promise((r) => gone.close(r));
    const failed = await smokeCheck({ url: down } as never, [], now);
    expect(failed).toEqual([`${down}/api/health answered ECONNREFUSED`]);
  });

  it("asks a page again until it answers 200 or the wait is over, as a CDN publishes", async () => {
    const late = [`${url}/@me/late`];
    expect(await smokeCheck({ url } as never, late, { waitMs: 5_000, everyMs: 50 })).toEqual([]);
    expect(asked).toBe(3);
    asked = 0;
    expect(await smokeCheck({ url } as never, late, { waitMs: 60, everyMs: 50 })).toEqual([
      `${url}/@me/late answered 404`,
    ]);
    expect(asked).toBe(2);
  });
});
