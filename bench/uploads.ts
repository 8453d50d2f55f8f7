// Memory of the server under big uploads (issue 25, SPEC §19 "Uploads obey the form"):
// `npx node bench/uploads.ts [clients] [mb]` starts `node functions/node/start.ts` on a fresh
// PGlite data directory, creates a form with a file field, warms it with one small upload, then
// sends `clients` (default 8) concurrent uploads of `mb` (default 60) MB each, streamed from
// this process in 64 KiB chunks. It prints the server's RSS before, its peak during (sampled every
// 50 ms from /proc), and 5 s later, and how many uploads were stored. Before streaming (the body
// read whole by FormData) the same run took the server from ~256 MB to ~1.5 GB. Streamed, the
// spent socket chunks still piled up outside the heap until V8's external-memory threshold: +86,
// +109 and +156 MB for 8 × 60 MB (2026-11-26). With a young-generation collection after every
// 4 MB streamed (functions/http/release-garbage.ts): +10…25 MB, median +14 MB, in six runs.

import "./reader-gone.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstKey, startChild } from "../test/faults/child-server.ts";

const clients = Number(process.argv[2] ?? 8);
const mb = Number(process.argv[3] ?? 60);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rss = (pid: number) =>
  Math.round(
    Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
  );

/** One multipart upload of `bytes` bytes, streamed; resolves with the status. */
function upload(url: string, bytes: number): Promise<number> {
  const boundary = "----bench-upload";
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="field"\r\n\r\ndoc\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: "POST",
        path: "/api/forms/bench-uploads/uploads",
        headers: {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(head.length + bytes + tail.length),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      },
    );
    req.on("error", reject);
    req.write(head);
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const part = sent + chunk.length <= bytes ? chunk : chunk.subarray(0, bytes - sent);
        sent += part.length;
        if (!req.write(part)) return void req.once("drain", pump);
      }
      req.end(tail);
    };
    pump();
  });
}

const dataDir = mkdtempSync(join(tmpdir(), "formdown-bench-uploads-"));
// BENCH_NODE_ARGS: flags for the server's node, to compare (e.g. "--max-semi-space-size=1")
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const server = await startChild({ dataDir, nodeArgs });
const pid = server.child.pid!;
try {
  const res = await fetch(`${server.url}/api/forms`, {
    method: "POST",
    headers: { authorization: `Bearer ${firstKey(dataDir)}`, "content-type": "application/json" },
    body: JSON.stringify({
      title: "Bench uploads",
      slug: "bench-uploads",
      humanness: false,
      fields: [{ id: "doc", type: "file", label: "Doc", max_mb: mb + 4 }],
    }),
  });
  if (res.status !== 201) throw new Error(`create form: ${res.status} ${await res.text()}`);
  if ((await upload(server.url, 1024 * 1024)) !== 201) throw new Error("warm-up upload failed");
  await sleep(3000);
  const before = rss(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss(pid));
  }, 50);
  const t = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: clients }, () => upload(server.url, mb * 1024 * 1024)),
  );
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  await sleep(5000);
  const after = rss(pid);
  const stored = statuses.filter((s) => s === 201).length;
  console.log(
    `${clients} concurrent uploads of ${mb} MB: ${stored} stored (statuses ${[...new Set(statuses)].join(",")}) in ${seconds.toFixed(1)} s; server RSS before ${before} MB, peak ${peak} MB (+${peak - before} MB), 5 s later ${after} MB`,
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
