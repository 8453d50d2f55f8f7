import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newSecret, signedHeaders, signingKey } from "./signing.ts";

describe("Standard Webhooks signing", () => {
  it("makes secrets of whsec_ and 32 random bytes", () => {
    const a = newSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(newSecret()).not.toBe(a);
  });

  it("signs so that the standardwebhooks package verifies it, and a changed byte does not", async () => {
    const secret = newSecret();
    const body = JSON.stringify({ type: "response.created", data: { text: 'ünïcødé ✓ "q"' } });
    const headers = signedHeaders(signingKey(secret), "msg_1", body);
    expect(headers["content-type"]).toBe("application/json");
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, "webhook-id": "msg_2" })).toThrow();
  });

  it("matches the HMAC the scheme defines, computed here with node:crypto", async () => {
    const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
    const { createHmac } = await import("node:crypto");
    const body = '{"a":1}';
    const headers = signedHeaders(signingKey(secret), "id-1", body, 1_700_000_000_000);
    const expected = createHmac("sha256", Buffer.from("0123456789abcdef0123456789abcdef"))
      .update(`id-1.1700000000.${body}`)
      .digest("base64");
    expect(headers).toMatchObject({
      "webhook-id": "id-1",
      "webhook-timestamp": "1700000000",
      "webhook-signature": `v1,${expected}`,
    });
  });
});
