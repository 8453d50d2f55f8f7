import { describe, expect, it } from "vitest";
import { drainingGate } from "./draining.ts";

const ok = () => Promise.resolve(new Response("ok", { status: 201 }));
const req = (path: string) => new Request(`http://x${path}`, { method: "POST" });

describe("the draining gate (SPEC §17, issue 24)", () => {
  it("serves as usual, without Connection: close, until the stop", async () => {
    const gate = drainingGate(ok);
    const res = await gate.fetch(req("/api/forms/a/submit"), undefined);
    expect(res.status).toBe(201);
    expect(res.headers.get("connection")).toBeNull();
  });

  it("once stopping, serves a late request with Connection: close and the health probe 503", async () => {
    const gate = drainingGate(ok);
    await gate.close();
    const late = await gate.fetch(req("/api/forms/a/submit"), undefined);
    expect(late.status).toBe(201);
    expect(late.headers.get("connection")).toBe("close");
    const health = await gate.fetch(req("/formdown/api/health"), undefined);
    expect(health.status).toBe(503);
    expect(health.headers.get("retry-after")).toBe("1");
    expect(((await health.json()) as { code: string }).code).toBe("unavailable");
  });

  it("once stopping, counts a health probe as no traffic, and a late request as traffic", async () => {
    const gate = drainingGate(ok);
    await gate.close();
    await new Promise((r) => setTimeout(r, 30));
    const quiet = gate.quietFor();
    expect((await gate.fetch(req("/api/health"), undefined)).status).toBe(503);
    expect(gate.quietFor()).toBeGreaterThanOrEqual(quiet);
    await gate.fetch(req("/api/forms/a/submit"), undefined);
    expect(gate.quietFor()).toBeLessThan(quiet);
  });

  it("copies an answer whose headers cannot be changed", async () => {
    const frozen = Response.redirect("http://x/elsewhere", 301);
    const gate = drainingGate(() => frozen);
    void gate.close();
    const res = await gate.fetch(req("/old"), undefined);
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("http://x/elsewhere");
    expect(res.headers.get("connection")).toBe("close");
  });

  it("waits for the requests in flight, then answers 503 once shut", async () => {
    let release!: () => void;
    const gate = drainingGate(
      () => new Promise<Response>((r) => (release = () => r(new Response("done")))),
    );
    const inFlight = gate.fetch(req("/api/forms/a/submit"), undefined);
    let drained = false;
    const closed = gate.close().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(gate.inFlight()).toBe(1);
    expect(drained).toBe(false);
    release();
    expect(await (await inFlight).text()).toBe("done");
    await closed;
    gate.shut();
    const after = await gate.fetch(req("/api/forms/a/submit"), undefined);
    expect(after.status).toBe(503);
    expect(after.headers.get("connection")).toBe("close");
  });
});
