import { createHash } from "node:crypto";

/**
 * The id of a delivery handed over without a row: `webhook_delivery_id(webhook, response)` of
 * migration …000200 (md5 of the two ids' text, as a uuid), so a delivery found again after a
 * kill carries the id its first attempt was sent with.
 */
export function deliveryId(webhook: string, response: string): string {
  const h = createHash("md5")
    .update(webhook + response)
    .digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
