// How a receiver checks a delivery, said by the service itself (SPEC §18): an agent that adds a
// webhook gets the recipe with the secret, so it need not know the Standard Webhooks spec.

/** A receiver's check in Node, with no dependency; `standardwebhooks` (npm) does the same. */
const VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from "node:crypto";
// h: the request headers, body: the raw request body as received (a string)
const key = Buffer.from(secret.slice("whsec_".length), "base64");
const mac = createHmac("sha256", key).update(\`\${h["webhook-id"]}.\${h["webhook-timestamp"]}.\${body}\`).digest();
const ok = h["webhook-signature"].split(" ").some((s) => {
  const sig = Buffer.from(s.slice(s.indexOf(",") + 1), "base64");
  return s.startsWith("v1,") && sig.length === mac.length && timingSafeEqual(sig, mac);
}) && Math.abs(Date.now() / 1000 - Number(h["webhook-timestamp"])) < 300;
// or: new (require("standardwebhooks").Webhook)(secret).verify(body, h) throws unless valid`;

/** The signing recipe, as add_webhook answers it beside the secret. */
export const SIGNING_RECIPE = {
  scheme: "Standard Webhooks (https://www.standardwebhooks.com)",
  headers: ["webhook-id", "webhook-timestamp", "webhook-signature"],
  signed_content: "<webhook-id>.<webhook-timestamp>.<raw body>",
  algorithm: "HMAC-SHA256",
  key: "the secret after whsec_, base64-decoded",
  signature:
    "webhook-signature is a space-separated list of v1,<base64 HMAC>; one match is enough. Reject timestamps more than 5 minutes off; dedupe by webhook-id (the same on every retry).",
  verify: VERIFY_SNIPPET,
};
