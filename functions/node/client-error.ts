import type { Server } from "node:http";
import type { Duplex } from "node:stream";

// Requests Node's HTTP parser refuses (a bad request line, headers over its limit, Content-Length
// together with chunked encoding) never reach the application; Node answers them with an empty
// 400 or 431. Every error is `{error, code}` (SPEC §9), so we answer them ourselves while the
// socket can still take an answer.

const HEADERS_TOO_LARGE = new Set(["HPE_HEADER_OVERFLOW"]);

export function answerParserErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // as Node's own handler does: answer unless a response is in flight on this socket and has
    // begun (an answer then would mix into it). An earlier, complete response of a kept-alive
    // connection is no reason: the client waits for this answer (a 20 KB URL on a reused
    // connection was a dropped connection, found by test/security/fuzz.test.ts).
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })
      ._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const large = HEADERS_TOO_LARGE.has(error.code ?? "");
    const body = JSON.stringify(
      large
        ? { error: "The request headers are too large.", code: "invalid_request" }
        : { error: "The request is not valid HTTP.", code: "invalid_request" },
    );
    socket.end(
      `HTTP/1.1 ${large ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\n` +
        "Content-Type: application/json\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
}
