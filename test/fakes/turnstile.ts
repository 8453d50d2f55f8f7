import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback fake of Cloudflare's siteverify (POST form-urlencoded or JSON: secret, response,
 * remoteip, idempotency_key → {success, error-codes, challenge_ts, hostname}). It follows the
 * documented test secrets: 1x…AA passes, 2x…AA fails, 3x…AA answers timeout-or-duplicate; a
 * token is single use.
 */
export async function startTurnstileFake() {
  const requests: Record<string, string>[] = [];
  const spent = new Set<string>();
  const server: Server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/turnstile/v0/api.js")) {
      // the widget script, as the dummy site keys behave: it renders and passes at once
      res.writeHead(200, { "content-type": "text/javascript" });
      return res.end(
        `window.turnstile = { render(el, o) { el.textContent = "Verified (test widget for " + o.sitekey + ")"; setTimeout(() => o.callback("XXXX.DUMMY.TOKEN.XXXX"), 10); } };`,
      );
    }
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const type = req.headers["content-type"] ?? "";
      const fields: Record<string, string> = type.includes("json")
        ? (JSON.parse(body) as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(body));
      requests.push(fields);
      const answer = (success: boolean, codes: string[] = []) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            success,
            "error-codes": codes,
            challenge_ts: new Date().toISOString(),
            hostname: "localhost",
          }),
        );
      };
      if (!fields.secret) return answer(false, ["missing-input-secret"]);
      if (!fields.response) return answer(false, ["missing-input-response"]);
      if (fields.secret.startsWith("2x")) return answer(false, ["invalid-input-response"]);
      if (fields.secret.startsWith("3x") || spent.has(fields.response))
        return answer(false, ["timeout-or-duplicate"]);
      if (!fields.secret.startsWith("1x")) return answer(false, ["invalid-input-secret"]);
      spent.add(fields.response);
      return answer(true);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
    script: `http://127.0.0.1:${port}/turnstile/v0/api.js?render=explicit`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
