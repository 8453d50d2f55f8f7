// A real loopback receiver for the webhook suites. It checks every signature with the
// `standardwebhooks` package — an implementation independent of the product's own signing.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";
import type { client } from "../helpers/api.ts";

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, any> };
  verified: boolean;
  headers: IncomingHttpHeaders;
}

/** What the receiver does with a request: answer a status, or hang (never answer). */
export type Behaviour = (r: Received, n: number) => number | "hang";

export interface Receiver {
  url: string;
  received: Received[];
  secret: string;
  behave(b: Behaviour): void;
  /** Resolves once `predicate` holds for what has arrived (polls), or rejects after `ms`. */
  until(predicate: (r: Received[]) => boolean, ms?: number): Promise<Received[]>;
  /** How many hanging requests the sender has given up on (closed its end) so far. */
  givenUp(): number;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let behaviour: Behaviour = () => 204;
  let secret = "";
  const hanging = new Set<import("node:http").ServerResponse>();
  let givenUp = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const h = req.headers as Record<string, string>;
      let verified = false;
      try {
        new Webhook(secret).verify(body, {
          "webhook-id": h["webhook-id"]!,
          "webhook-timestamp": h["webhook-timestamp"]!,
          "webhook-signature": h["webhook-signature"]!,
        });
        verified = true;
      } catch {
        verified = false;
      }
      const r: Received = {
        id: h["webhook-id"]!,
        timestamp: h["webhook-timestamp"]!,
        signature: h["webhook-signature"]!,
        body,
        json: JSON.parse(body),
        verified,
        headers: req.headers,
      };
      received.push(r);
      const answer = behaviour(r, received.length);
      if (answer === "hang") {
        hanging.add(res);
        res.once("close", () => {
          if (hanging.delete(res)) givenUp++;
        });
        return;
      }
      res.writeHead(answer, { "content-type": "text/plain" });
      res.end(answer >= 300 ? "nope" : "ok");
    });
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    get secret() {
      return secret;
    },
    set secret(s: string) {
      secret = s;
    },
    behave(b) {
      behaviour = b;
    },
    givenUp: () => givenUp,
    // a deadline only against a hang: on a machine under load a delivery may take seconds
    async until(predicate, ms = 60_000) {
      const end = Date.now() + ms;
      while (!predicate(received)) {
        if (Date.now() > end)
          throw new Error(
            `receiver: condition not met after ${ms} ms (${received.length} received)`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    async close() {
      const open = [...hanging];
      hanging.clear();
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  } as Receiver;
}

type Api = ReturnType<typeof client>;

/**
 * A receiver with a webhook of the form `slug` pointing at it (its secret set, so signatures
 * verify); it is added to `receivers` for the suite to close.
 */
export async function hookReceiver(
  api: Api,
  slug: string,
  receivers: Receiver[],
  events?: string[],
): Promise<{ receiver: Receiver; hook: { id: string; secret: string } }> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const res = await api("POST", `/api/forms/${slug}/webhooks`, {
    body: { url: receiver.url, ...(events ? { events } : {}) },
  });
  expect(res.status).toBe(201);
  receiver.secret = res.body.secret;
  return { receiver, hook: res.body };
}
