import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smokeCheck } from "./smoke.ts";

// a server whose health is fine, one page answers and one does not
const server = createServer((req, res) => {
  res.writeHead(req.url === "/@me/gone" ? 404 : 200).end("ok");
});
let url = "";
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("the deploy's smoke check", () => {
  it("passes when the health check and every page answer 200", async () => {
    expect(await smokeCheck({ url } as never, [`${url}/@me/hello`])).toEqual([]);
  });

  it("names each page that did not answer 200, and a server that does not answer at all", async () => {
    expect(await smokeCheck({ url } as never, [`${url}/@me/hello`, `${url}/@me/gone`])).toEqual([
      `${url}/@me/gone answered 404`,
    ]);
    // a port nothing listens on any more
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", r));
    const down = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
    await new Promise((r) => gone.close(r));
    const failed = await smokeCheck({ url: down } as never, []);
    expect(failed).toEqual([`${down}/api/health answered ECONNREFUSED`]);
  });
});
