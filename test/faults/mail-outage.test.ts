// The mail provider down, then up (issue 16 item 6): a real server process with its own
// outbox sender, Postmark as a loopback fake that answers 500 while down. Every email due must
// arrive once it is back — none lost, none twice. The long version: `node bench/faults.ts`.
import { beforeAll, describe, expect, it } from "vitest";
import { type MailOutageResult, mailOutage } from "./scenarios.ts";

describe("Postmark down while responses arrive, then up", () => {
  let r: MailOutageResult;
  beforeAll(async () => {
    r = await mailOutage({ count: 30, downMs: 1500, settleMs: 2500 });
  }, 120_000);

  it("acknowledges every submit while the provider is down, and tries to deliver", () => {
    expect(r.acknowledged).toBe(30);
    expect(r.refused).toBeGreaterThan(0);
  });

  it("delivers every email exactly once after the provider is back", () => {
    const expected = [
      ...Array.from({ length: 30 }, (_, i) => `R #${i}`),
      "Faults reached 30 responses",
    ];
    // how soon after it is back: bench/faults.ts
    expect([...r.subjects].sort()).toEqual(expected.sort());
  });
});
