// Plain sockets for the graceful-stop suites: a request whose body is still being sent (in
// flight at the signal), and a kept-alive connection that sends a second request later.
import { connect, type Socket } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads one HTTP/1.1 answer (Content-Length framed) from the socket; rejects if it closes first. */
export function readAnswer(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let buf = "";
    const onData = (d: Buffer) => {
      buf += d.toString("latin1");
      const end = buf.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine, ...lines] = buf.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(":");
        headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      const length = Number(headers["content-length"] ?? 0);
      if (buf.length < end + 4 + length) return;
      socket.off("data", onData);
      socket.off("close", onClose);
      resolve({
        status: Number(statusLine!.split(" ")[1]),
        headers,
        body: buf.slice(end + 4, end + 4 + length),
      });
    };
    const onClose = () => reject(new Error(`connection closed without an answer: ${buf}`));
    socket.on("data", onData);
    socket.once("close", onClose);
  });
}

export function open(url: string): Promise<Socket> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => resolve(s));
    s.once("error", reject);
  });
}

/** The request's head and body as text (keep-alive, Content-Length). */
export function request(method: string, url: string, body = "", extra = ""): string {
  const u = new URL(url);
  return (
    `${method} ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`
  );
}

/** Whether a new connection is refused (the listener is closed). */
export async function refused(url: string): Promise<boolean> {
  try {
    const s = await open(url);
    s.destroy();
    return false;
  } catch (e) {
    return (e as { code?: string }).code === "ECONNREFUSED";
  }
}
