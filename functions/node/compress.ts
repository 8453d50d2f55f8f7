// Text responses compressed for a client that accepts it (Lighthouse "uses text compression"):
// the pages' HTML, JS and CSS, the API's JSON (/api/openapi.json is 128 KB), exports. Each chunk
// is flushed as it is written, so a streamed answer (an export) still streams; an event stream
// is left alone. Deno.serve compresses by itself; this is the Node server's.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline, Readable, type Transform } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { constants, createBrotliCompress, createGzip } from "node:zlib";

const TEXT =
  /^(text\/(?!event-stream)|application\/(json|javascript|xml|manifest\+json|ld\+json|problem\+json|x-ndjson|yaml)|image\/svg\+xml)/i;
/** Below this, compression saves less than a packet. */
const MIN_BYTES = 1024;

type Encoding = "br" | "gzip";

/** The encoding to answer in: brotli, then gzip, as the client's Accept-Encoding allows. */
export function pickEncoding(accept: string | null): Encoding | null {
  if (!accept) return null;
  const q = new Map<string, number>();
  for (const part of accept.toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    const weight = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    q.set(name.trim(), weight === undefined ? 1 : Number(weight));
  }
  const allowed = (e: string) => (q.get(e) ?? q.get("*") ?? 0) > 0;
  return allowed("br") ? "br" : allowed("gzip") ? "gzip" : null;
}

/** The compressor: quick settings (a response is compressed once per request). */
const compressor = (encoding: Encoding) =>
  encoding === "br"
    ? createBrotliCompress({
        flush: constants.BROTLI_OPERATION_FLUSH,
        params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
      })
    : createGzip({ flush: constants.Z_SYNC_FLUSH, level: 6 });

/** `res` compressed when the request accepts it and the answer is text worth compressing. */
export function compressed(req: Request, res: Response): Response {
  if (!res.body || req.method === "HEAD" || res.status === 206 || res.status < 200) return res;
  const headers = res.headers;
  if (headers.has("content-encoding")) return res;
  if (!TEXT.test(headers.get("content-type") ?? "")) return res;
  if (/no-transform/i.test(headers.get("cache-control") ?? "")) return res;
  // a download (an export) goes as it is: a stream that fails midway must reach the client cut,
  // and its connection and database rows be let go at once, which a compressor in between delays
  if (/attachment/i.test(headers.get("content-disposition") ?? "")) return res;
  const length = headers.get("content-length");
  if (length !== null && Number(length) < MIN_BYTES) return res;
  const encoding = pickEncoding(req.headers.get("accept-encoding"));
  const out = new Headers(headers);
  out.append("vary", "Accept-Encoding");
  if (!encoding)
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out });
  out.delete("content-length");
  out.set("content-encoding", encoding);
  // another representation: a strong validator becomes a weak one
  const etag = out.get("etag");
  if (etag && !etag.startsWith("W/")) out.set("etag", `W/${etag}`);
  // through stream.pipeline: a body that fails midway (an export whose database errs) destroys
  // the compressor with its error, so the answer is cut, never ended as if complete or left open
  const zip = compressor(encoding);
  pipeline(Readable.fromWeb(res.body as NodeReadableStream<Uint8Array>), zip, () => {});
  const body = Readable.toWeb(zip) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status: res.status, statusText: res.statusText, headers: out });
}

/**
 * A fetch handler whose answers are compressed as `compressed` says. A revalidation names the
 * weak tag a compressed answer carried: the handler is asked with the tag it made.
 */
export const withCompression =
  <E>(handle: (req: Request, env: E) => Promise<Response>) =>
  async (req: Request, env: E): Promise<Response> => {
    const tag = req.headers.get("if-none-match");
    const asked =
      tag?.includes("W/") && (req.method === "GET" || req.method === "HEAD")
        ? new Request(req, {
            headers: [...req.headers].map(([k, v]) =>
              k === "if-none-match" ? [k, v.replaceAll("W/", "")] : [k, v],
            ) as [string, string][],
          })
        : req;
    return compressed(req, await handle(asked, env));
  };

type Head = Record<string, number | string | string[] | undefined>;
type Callback = (error?: Error | null) => void;

/**
 * The same for an answer written straight to Node's response (the form pages Astro renders into
 * it): the head decides, as `compressed` does, and the body goes through the compressor.
 */
export function compressOutgoing(req: IncomingMessage, res: ServerResponse): void {
  const accept = req.headers["accept-encoding"];
  const encoding = pickEncoding(Array.isArray(accept) ? accept.join(",") : (accept ?? null));
  if (!encoding || req.method === "HEAD") return;
  const write = res.write.bind(res) as (chunk: unknown, cb?: Callback) => boolean;
  const end = res.end.bind(res) as (cb?: () => void) => ServerResponse;
  const writeHead = res.writeHead.bind(res) as (
    status: number,
    ...rest: unknown[]
  ) => ServerResponse;
  let zip: Transform | null = null;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const head = rest.find((r) => r && typeof r === "object" && !Array.isArray(r)) as
      | Head
      | undefined;
    const key = (name: string) => Object.keys(head ?? {}).find((k) => k.toLowerCase() === name);
    const get = (name: string) => {
      const k = key(name);
      return k ? head![k] : res.getHeader(name);
    };
    const length = get("content-length");
    const worth =
      status >= 200 &&
      status !== 204 &&
      status !== 206 &&
      status !== 304 &&
      TEXT.test(String(get("content-type") ?? "")) &&
      !get("content-encoding") &&
      !/no-transform/i.test(String(get("cache-control") ?? "")) &&
      !(length !== undefined && Number(length) < MIN_BYTES);
    if (worth) {
      const k = key("content-length");
      if (k) delete head![k];
      res.removeHeader("content-length");
      res.setHeader("content-encoding", encoding);
      res.setHeader("vary", "Accept-Encoding");
      const z = compressor(encoding);
      z.on("data", (chunk: Buffer) => {
        if (!write(chunk)) {
          z.pause();
          res.once("drain", () => z.resume());
        }
      });
      z.on("end", () => end());
      zip = z;
    }
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
  // a body written before any head: the head is decided first (Node would write it implicitly)
  const decide = () => {
    if (!res.headersSent && !zip) res.writeHead(res.statusCode);
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    decide();
    if (!zip) return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    return (zip.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    const done = typeof args.at(-1) === "function" ? (args.pop() as () => void) : undefined;
    const chunk = typeof args[0] === "function" ? undefined : args[0];
    if (chunk !== undefined && chunk !== null) decide();
    else if (!res.headersSent && !zip) res.writeHead(res.statusCode);
    if (!zip) return end(...([chunk, args[1], done].filter((a) => a !== undefined) as []));
    if (done) res.once("finish", done);
    if (chunk !== undefined && chunk !== null) zip.end(chunk as Buffer);
    else zip.end();
    return res;
  }) as typeof res.end;
}
