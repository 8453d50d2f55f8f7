import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answerParserErrors } from "./client-error.ts";

let server: Server;
afterEach(() => new Promise((done) => server.close(done)));

async function listen(): Promise<number> {
  server = createServer((req, res) => {
    if (req.url !== "/slow") return res.end("ok");
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("half ");
    setTimeout(() => res.end("ok"), 300);
  });
  answerParserErrors(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return (server.address() as AddressInfo).port;
}

/**
 * Sends the requests on one kept-alive connection, each after the answer before it is complete
 * (`ok`) or half sent (`half `); answers what came back until the server closed it.
 */
function onOneConnection(port: number, requests: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const queue = [...requests];
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk;
      if (/(ok|half )(\r\n)?$/.test(data) && queue.length) socket.write(queue.shift()!);
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(data));
    socket.write(queue.shift()!);
  });
}

describe("answerParserErrors", () => {
  it("answers headers over the limit with a JSON 431 on a kept-alive connection after an earlier answer", async () => {
    const port = await listen();
    const data = await onOneConnection(port, [
      "GET /a HTTP/1.1\r\nHost: x\r\n\r\n",
      `GET /${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]);
    const answers = data.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 431/);
    const body = answers[1]!.split("\r\n\r\n")[1]!;
    expect(JSON.parse(body)).toEqual({ error: expect.any(String), code: "invalid_request" });
  });

  it("writes nothing into a response that is still being sent (a pipelined bad request)", async () => {
    const port = await listen();
    const data = await onOneConnection(port, [
      "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n",
      `GET /${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]);
    expect(data).toMatch(/^HTTP\/1\.1 200/);
    expect(data).not.toContain("HTTP/1.1 431");
  });

  it("answers a first request Node cannot parse with a JSON 400", async () => {
    const port = await listen();
    const data = await onOneConnection(port, ["GARBAGE\r\n\r\n"]);
    expect(data).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(data.split("\r\n\r\n")[1]!).code).toBe("invalid_request");
  });
});
