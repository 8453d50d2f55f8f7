import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solveAltcha } from "../helpers/altcha.ts";
import { holdChunks, type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;

const create = (slug: string, extra: Record<string, unknown> = {}) =>
  suite.api("POST", "/api/forms", {
    body: {
      title: `Form ${slug}`,
      slug,
      humanness: false,
      fields: [{ id: "answer", type: "text", label: "Your answer", required: true }],
      ...extra,
    },
  });

beforeAll(async () => {
  suite = await startPageSuite();
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

describe("who may respond, as the page shows it", () => {
  it("keeps a password form's questions off its page until the password is given, then submits", async () => {
    await create("secret", { body: "Secret instructions", ending: { title: "Secret ending" } });
    const set = await suite.api("PUT", "/api/forms/secret/access", {
      body: { mode: "password", password: "open sesame" },
    });
    expect(set.status).toBe(200);
    // neither the static HTML nor the public JSON carries the content (SPEC §19)
    const html = await (await fetch(`${suite.server.url}/@me/secret`)).text();
    for (const secret of ["Your answer", "Secret instructions", "Secret ending"])
      expect(html).not.toContain(secret);
    const pub = await fetch(`${suite.server.url}/api/forms/secret/public`);
    const json = await pub.text();
    expect(json).not.toContain("Your answer");
    expect(JSON.parse(json)).toMatchObject({ access: "password", title: "Form secret" });
    // a password is tried only with an anti-bot token (SPEC §23)
    const bare = await fetch(`${suite.server.url}/api/forms/secret/public?access=open%20sesame`);
    expect(bare.status).toBe(422);
    const wrongJson = await fetch(`${suite.server.url}/api/forms/secret/public?access=nope`, {
      headers: { "x-formdown-antibot": await solveAltcha(suite.server.url) },
    });
    expect(wrongJson.status).toBe(403);
    const rightJson = await fetch(`${suite.server.url}/api/forms/secret/public`, {
      headers: {
        "x-formdown-access": "open sesame",
        "x-formdown-antibot": await solveAltcha(suite.server.url),
      },
    });
    expect(
      ((await rightJson.json()) as { form: { fields: { label: string }[] } }).form.fields[0]!.label,
    ).toBe("Your answer");

    const page = await suite.open("/@me/secret");
    expect(await page.getByLabel("Your answer").count()).toBe(0);
    await page.getByLabel("Password").fill("wrong guess");
    await page.getByRole("button", { name: "Next" }).click();
    await page.locator(".fd-status.fd-bad").waitFor();
    expect(await page.locator(".fd-status").textContent()).toMatch(/password|link/i);
    expect(await page.getByLabel("Your answer").count()).toBe(0);
    await page.getByLabel("Password").fill("open sesame");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("Your answer").fill("hello");
    await expect(page.locator(".fd-body").textContent()).resolves.toContain("Secret instructions");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Secret ending" }).waitFor();
    expect((await suite.latest("secret"))?.payload).toEqual({ answer: "hello" });
  });

  it("keeps a password given before the page's script arrives out of the address, and unlocks with it", async () => {
    await create("early", { body: "Early instructions" });
    await suite.api("PUT", "/api/forms/early/access", {
      body: { mode: "password", password: "quick" },
    });
    let chunk!: Awaited<ReturnType<typeof holdChunks>>;
    const page = await suite.open("/@me/early", {
      before: async (p) => (chunk = await holdChunks(p, "**/_astro/unlock.*.js")),
      loaded: "domcontentloaded",
    });
    await chunk.requested;
    await page.getByLabel("Password").fill("quick");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    chunk.release();
    await page.getByLabel("Your answer").fill("early bird");
    expect(page.url()).toBe(`${suite.server.url}/@me/early`);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect((await suite.latest("early"))?.payload).toEqual({ answer: "early bird" });
  });

  it("holds a Submit made before the unlocked form's own script has come, and sends it then", async () => {
    await create("slow", { body: "Slow instructions" });
    await suite.api("PUT", "/api/forms/slow/access", {
      body: { mode: "password", password: "patience" },
    });
    let chunk!: Awaited<ReturnType<typeof holdChunks>>;
    const page = await suite.open("/@me/slow", {
      before: async (p) => (chunk = await holdChunks(p, "**/_astro/form-element.*.js")),
    });
    await page.getByLabel("Password").fill("patience");
    await page.getByRole("button", { name: "Next" }).click();
    await chunk.requested;
    await page.getByLabel("Your answer").fill("in time");
    await page.getByRole("button", { name: "Submit" }).click();
    // no native submit meanwhile: it would put the answers and the password in the address
    expect(page.url()).toBe(`${suite.server.url}/@me/slow`);
    chunk.release();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect(page.url()).toBe(`${suite.server.url}/@me/slow`);
    expect((await suite.latest("slow"))?.payload).toEqual({ answer: "in time" });
  });

  it("saves a password form's partial answers with an anti-bot token each, then submits", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Long secret",
        slug: "long-secret",
        humanness: false,
        settings: { partial: true },
        fields: [
          { id: "name", type: "text", label: "Name", step: 1 },
          { id: "team", type: "text", label: "Team", step: 2 },
        ],
      },
    });
    await suite.api("PUT", "/api/forms/long-secret/access", {
      body: { mode: "password", password: "step by step" },
    });
    const page = await suite.open("/@me/long-secret");
    await page.getByLabel("Password").fill("step by step");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("Name").fill("Grace");
    await page.getByRole("button", { name: "Next" }).click();
    // the save tried the password: the server took it only with a token (SPEC §23)
    const partials = async () =>
      (await suite.api("GET", "/api/forms/long-secret/responses?status=partial")).body;
    for (let i = 0; i < 100 && (await partials()).total === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await partials()).responses[0]).toMatchObject({ payload: { name: "Grace" } });
    await page.getByLabel("Team").fill("Compilers");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect((await suite.latest("long-secret"))?.payload).toEqual({
      name: "Grace",
      team: "Compilers",
    });
  });

  it("shows a link-only form only with the token from its URL, and submits with it", async () => {
    await create("invite");
    const set = await suite.api("PUT", "/api/forms/invite/access", { body: { mode: "link" } });
    const token = set.body.access_token as string;
    expect(token).toBeTruthy();
    expect(await (await fetch(`${suite.server.url}/@me/invite`)).text()).not.toContain(
      "Your answer",
    );
    const bare = await suite.open("/@me/invite");
    await bare.locator(".fd-closed").waitFor();
    expect(await bare.getByLabel("Your answer").count()).toBe(0);
    expect(await bare.getByRole("button", { name: "Submit" }).count()).toBe(0);
    const page = await suite.open(`/@me/invite?access=${encodeURIComponent(token)}`);
    await page.getByLabel("Your answer").fill("with token");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    const rows = (await suite.api("GET", "/api/forms/invite/responses")).body;
    expect(rows.total).toBe(1);
    expect(rows.responses[0].payload).toEqual({ answer: "with token" });
  });

  it("shows a closed notice instead of the fields once the form is closed", async () => {
    await create("shut");
    await suite.api("PUT", "/api/forms/shut/access", { body: { mode: "closed" } });
    const page = await suite.open("/@me/shut");
    await expect(page.getByRole("status").first().textContent()).resolves.toMatch(/closed/);
    expect(await page.getByRole("button", { name: "Submit" }).count()).toBe(0);
    expect(await page.getByLabel("Your answer").count()).toBe(0);
  });

  it("shows a past closes_at as closed too", async () => {
    await create("late", { settings: { closes_at: "2020-01-01T00:00:00Z" } });
    const page = await suite.open("/@me/late");
    await expect(page.locator(".fd-closed").textContent()).resolves.toMatch(/closed/);
  });

  it("redirects the short URL and variant B's /<slug> to the page, keeping the query", async () => {
    const made = await create("shorty");
    const short = new URL(made.body.short_url as string).pathname;
    expect(short).toMatch(/[A-Z]/);
    for (const path of [short, "/shorty"]) {
      const res = await fetch(`${suite.server.url}${path}?utm_source=x`, { redirect: "manual" });
      expect(res.status).toBe(302);
      expect(
        new URL(res.headers.get("location")!).pathname +
          new URL(res.headers.get("location")!).search,
      ).toBe("/@me/shorty?utm_source=x");
    }
    const page = await suite.open(short);
    expect(new URL(page.url()).pathname).toBe("/@me/shorty");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
      "Form shorty",
    );
  });

  it("answers an unknown form, or a form under another handler, with a friendly 404", async () => {
    for (const path of ["/@me/no-such-form", "/@someone-else/shorty"]) {
      const res = await fetch(`${suite.server.url}${path}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("Form not found");
    }
  });

  it("fetches the form's own script on a locked page only once the password let the form in", async () => {
    await create("vault");
    await suite.api("PUT", "/api/forms/vault/access", {
      body: { mode: "password", password: "open sesame" },
    });
    const asked: string[] = [];
    const page = await suite.open("/@me/vault", {
      before: async (p) =>
        p.on("request", (r) => asked.push(/\/_astro\/([a-z-]+)\./.exec(r.url())?.[1] ?? "")),
    });
    await page.waitForLoadState("networkidle");
    // what the locked page runs: the hold, the unlock and its anti-bot token maker, no form
    expect(asked).toContain("unlock");
    expect(asked).not.toContain("form-element");
    await page.getByLabel("Password").fill("open sesame");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("Your answer").fill("inside");
    expect(asked).toContain("form-element");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect((await suite.latest("vault"))?.payload).toEqual({ answer: "inside" });
  });

  it("fetches sending and the ending at the first answer, and no anti-bot chunk for a form without one", async () => {
    await create("open-plain");
    const asked: string[] = [];
    const page = await suite.open("/@me/open-plain", {
      before: async (p) =>
        p.on("request", (r) => asked.push(/\/_astro\/([a-z-]+)\./.exec(r.url())?.[1] ?? "")),
    });
    expect(asked).not.toContain("submit");
    const sending = page.waitForRequest(/\/_astro\/submit\./);
    await page.getByLabel("Your answer").fill("hello");
    await sending;
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect(asked).toEqual(expect.arrayContaining(["submit", "finish"]));
    expect(asked).not.toContain("anti-bot");
    expect(asked).not.toContain("solver");
  });

  it("says so when sending's chunk cannot be fetched, and fetches it again at the next Submit", async () => {
    await create("spotty");
    const page = await suite.open("/@me/spotty");
    await page.route("**/_astro/submit.*.js", (route) => route.abort("internetdisconnected"));
    await page.getByLabel("Your answer").fill("patience");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect
      .poll(() => page.locator(".fd-status").textContent())
      .toMatch(/offline|connection/i);
    await page.unroute("**/_astro/submit.*.js");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect((await suite.latest("spotty"))?.payload).toEqual({ answer: "patience" });
  });

  it("runs without script errors", () => {
    // the refused submits above log their 403 answers, the chunk fetched offline its failure;
    // nothing else may appear
    const expected = (e: string) => e.includes("403") || e.includes("ERR_INTERNET_DISCONNECTED");
    expect(suite.errors.filter((e) => !expected(e))).toEqual([]);
  });
});
