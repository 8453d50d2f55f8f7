import { describe, expect, it } from "vitest";
import { responseId } from "./response-id.ts";

describe("response ids", () => {
  it("are UUIDv7 that sort in the order they were made, within one millisecond too", () => {
    const at = Date.now() + 60_000;
    const ids = [responseId(at), responseId(at), responseId(at), responseId(at + 1)];
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
    expect(Number.parseInt(ids[0]!.replace("-", "").slice(0, 12), 16)).toBe(at);
  });

  it("borrows the next millisecond after 4,096 in one, and never goes back", () => {
    const at = Date.now() + 120_000;
    const ids = Array.from({ length: 5000 }, () => responseId(at));
    expect([...ids].sort()).toEqual(ids);
    // a clock that steps back still gets ids after the last one
    const earlier = responseId(at - 10_000);
    expect(earlier > ids.at(-1)!).toBe(true);
  });
});
