import { describe, expect, it } from "vitest";
import { clientAddress, clientBucket, parseTrustedProxies } from "./client-address.ts";

const none = parseTrustedProxies(undefined);
const one = parseTrustedProxies("1");
const two = parseTrustedProxies("2");
const cidrs = parseTrustedProxies("10.0.0.0/8, 192.168.1.1, fd00::/8");

describe("the client's address", () => {
  it("is the socket's peer by default, whatever X-Forwarded-For says", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.1, 10.0.0.1", none)).toBe("203.0.113.9");
    expect(clientAddress("::ffff:203.0.113.9", undefined, none)).toBe("203.0.113.9");
  });

  it("is the N-th entry from the right behind N proxies; spoofing the left changes nothing", () => {
    for (let i = 0; i < 50; i++) {
      expect(clientAddress("10.0.0.2", `198.51.100.${i}, 203.0.113.7`, one)).toBe("203.0.113.7");
      expect(clientAddress("10.0.0.2", `198.51.100.${i}, 203.0.113.7, 10.0.0.1`, two)).toBe(
        "203.0.113.7",
      );
    }
    expect(clientAddress("10.0.0.2", undefined, one)).toBe("10.0.0.2");
  });

  it("strips trusted CIDRs from the right, peer included", () => {
    expect(clientAddress("10.1.2.3", "1.1.1.1, 203.0.113.7, 192.168.1.1", cidrs)).toBe(
      "203.0.113.7",
    );
    expect(clientAddress("203.0.113.8", "1.1.1.1, 10.0.0.1", cidrs)).toBe("203.0.113.8");
    expect(clientAddress("fd00::1", "2001:db8::5", cidrs)).toBe("2001:db8::5");
    expect(clientAddress("10.0.0.1", "10.0.0.5", cidrs)).toBe("10.0.0.5");
  });

  it("rejects a malformed setting with one line naming the variable", () => {
    expect(() => parseTrustedProxies("10.0.0.0/99")).toThrow(/^FORMDOWN_TRUSTED_PROXIES: /);
    expect(() => parseTrustedProxies("proxy.example.com")).toThrow(/FORMDOWN_TRUSTED_PROXIES/);
  });
});

describe("the client's bucket", () => {
  it("is an IPv6 client's /64: every address of one network shares it", () => {
    const one = clientBucket("2001:db8:1:2::1");
    expect(one).toBe("2001:db8:1:2::/64");
    expect(clientBucket("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe(one);
    expect(clientBucket("2001:db8:1:2:abcd::9")).toBe(one);
    expect(clientBucket("2001:db8:1:3::1")).not.toBe(one);
    expect(clientBucket("::1")).toBe("0:0:0:0::/64");
  });

  it("is an IPv4 client's own address, mapped or not; none is '-'", () => {
    expect(clientBucket("203.0.113.9")).toBe("203.0.113.9");
    expect(clientBucket("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientBucket("203.0.113.10")).not.toBe(clientBucket("203.0.113.9"));
    expect(clientBucket(undefined)).toBe("-");
  });
});
