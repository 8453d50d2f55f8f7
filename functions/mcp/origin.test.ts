import { describe, expect, it } from "vitest";
import { readConfig } from "../config.ts";
import { originAllowed } from "./origin.ts";

const config = readConfig({
  FORMDOWN_BASE_URL: "https://api.example.org",
  FORMDOWN_PUBLIC_BASE_URL: "https://forms.example.org/",
});

describe("originAllowed (MCP transport: Origin MUST be validated)", () => {
  it("lets clients that send no Origin through", () => {
    expect(originAllowed(config, undefined, "api.example.org")).toBe(true);
  });

  it("lets the configured base and public origins through", () => {
    expect(originAllowed(config, "https://api.example.org", "api.example.org")).toBe(true);
    expect(originAllowed(config, "https://forms.example.org", "api.example.org")).toBe(true);
  });

  it("refuses a foreign origin even when the Host header matches it (DNS rebinding)", () => {
    expect(originAllowed(config, "http://evil.example.com", "evil.example.com")).toBe(false);
    expect(originAllowed(config, "http://api.example.org", "api.example.org")).toBe(false);
    expect(originAllowed(config, "null", "api.example.org")).toBe(false);
    expect(originAllowed(config, "not a url", "api.example.org")).toBe(false);
  });

  it("lets a page of this same loopback address through, not another port's", () => {
    expect(originAllowed(config, "http://127.0.0.1:4321", "127.0.0.1:4321")).toBe(true);
    expect(originAllowed(config, "http://localhost:4321", "localhost:4321")).toBe(true);
    expect(originAllowed(config, "http://127.0.0.1:9999", "127.0.0.1:4321")).toBe(false);
  });
});
