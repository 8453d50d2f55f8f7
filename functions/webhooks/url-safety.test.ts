import { describe, expect, it } from "vitest";
import { isPrivateAddress, urlProblem } from "./url-safety.ts";

describe("webhook URL safety", () => {
  it("knows loopback, private, link-local, metadata and other special addresses", () => {
    for (const ip of [
      "127.0.0.1",
      "127.8.9.10",
      "10.0.0.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fe80::1",
      "fc00::1",
      "fd00:ec2::254",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "ff02::1",
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "192.169.0.1",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it("accepts only http and https, without credentials", async () => {
    expect(await urlProblem("https://example.com/hook", true)).toBeNull();
    expect(await urlProblem("http://127.0.0.1:3000/x", true)).toBeNull();
    expect(await urlProblem("ftp://example.com/", true)).toMatch(/http or https/);
    expect(await urlProblem("javascript:alert(1)", true)).toMatch(/http or https/);
    expect(await urlProblem("/relative", true)).toMatch(/absolute/);
    expect(await urlProblem("https://user:pw@example.com/", true)).toMatch(/password/);
  });

  it("refuses private targets when they are not allowed, by address and by name", async () => {
    expect(await urlProblem("http://127.0.0.1:3000/x", false)).toMatch(/private/);
    expect(await urlProblem("http://[::1]/x", false)).toMatch(/private/);
    expect(await urlProblem("http://localhost/x", false)).toMatch(/private/);
    expect(await urlProblem("http://169.254.169.254/latest", false)).toMatch(/private/);
    expect(await urlProblem("http://metadata.google.internal/", false)).toMatch(/metadata/);
    expect(await urlProblem("http://8.8.8.8/x", false)).toBeNull();
    expect(await urlProblem("http://no-such-host.invalid/", false)).toMatch(/does not resolve/);
  });
});
