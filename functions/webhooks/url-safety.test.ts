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

  it("refuses every IPv6 spelling of a loopback, private or local address like its IPv4 form", async () => {
    for (const url of [
      "http://[::127.0.0.1]/",
      "http://[::ffff:0:127.0.0.1]/",
      "http://[2002:7f00:1::]/",
      "http://[64:ff9b:1::7f00:1]/",
      "http://[fec0::1]/",
      "http://[0:0:0:0:0:ffff:7f00:1]/",
      "http://[::ffff:169.254.169.254]/",
      "http://[::10.0.0.1]/",
      "http://[2002:c0a8:101::1]/",
      "http://[64:ff9b::192.168.0.1]/",
      "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", // Teredo, client 127.0.0.1
      "http://[2001:db8::1]/",
      "http://[::]/",
    ])
      expect(await urlProblem(url, false), url).toMatch(/private/);
    for (const ip of ["::7f00:1", "::127.0.0.1", "fec0::1", "febf::1", "2002:a00:1::", "100::1"])
      expect(isPrivateAddress(ip), ip).toBe(true);
  });

  it("still accepts public IPv6 and public addresses embedded in IPv6", async () => {
    for (const ip of [
      "2606:4700::1111",
      "2002:808:808::1", // 6to4 of 8.8.8.8
      "64:ff9b::808:808", // NAT64 of 8.8.8.8
      "::808:808",
      "2001:0:808:808:8000:63bf:f7f7:f7f7", // Teredo, server and client 8.8.8.8
      "2a00:1450:4001:80b::200e",
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
    expect(await urlProblem("http://[2606:4700::1111]/x", false)).toBeNull();
  });
});
