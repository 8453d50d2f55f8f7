import { describe, expect, it } from "vitest";
import { isLocalOrigin, normaliseBaseUrl } from "./base-url.ts";

describe("origins from the environment", () => {
  it("assumes https for a bare host, http for localhost, and drops a trailing slash", () => {
    expect(normaliseBaseUrl("X", "forms.example.com")).toBe("https://forms.example.com");
    expect(normaliseBaseUrl("X", "https://forms.example.com/")).toBe("https://forms.example.com");
    expect(normaliseBaseUrl("X", "localhost:4321/")).toBe("http://localhost:4321");
    expect(normaliseBaseUrl("X", "127.0.0.1:8000")).toBe("http://127.0.0.1:8000");
    expect(normaliseBaseUrl("X", "https://x.supabase.co/functions/v1/formdown/")).toBe(
      "https://x.supabase.co/functions/v1/formdown",
    );
    expect(normaliseBaseUrl("X", "  ")).toBeUndefined();
  });

  it("refuses a malformed one with one line naming the variable", () => {
    expect(() => normaliseBaseUrl("FORMDOWN_URL", "https://exa mple.com")).toThrow(
      /^FORMDOWN_URL: "https:\/\/exa mple.com" is not a URL/,
    );
    expect(() => normaliseBaseUrl("FORMDOWN_BASE_URL", "ftp://x.example")).toThrow(
      /^FORMDOWN_BASE_URL: /,
    );
  });

  it("knows which origins only work on the machine itself", () => {
    expect(isLocalOrigin("http://localhost:4321")).toBe(true);
    expect(isLocalOrigin("http://127.0.0.1")).toBe(true);
    expect(isLocalOrigin("https://forms.example.com")).toBe(false);
  });
});
