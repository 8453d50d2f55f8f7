import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

interface FileEntry {
  content: string;
  sha: string;
}

/**
 * A loopback fake of GitHub's contents API (GET/PUT/DELETE /repos/{owner}/{repo}/contents/{path}),
 * enough for the real Octokit client: base64 content, blob shas, optimistic `sha` checks (409/422).
 * Also a pull request's comments and labels (issues API), every call recorded in `calls`.
 */
export async function startGithubFake(owner: string, repo: string) {
  const files = new Map<string, FileEntry>();
  const commits: { message: string; path: string; sha: string }[] = [];
  let n = 0;
  const prefix = `/repos/${owner}/${repo}/contents/`;
  const issues = `/repos/${owner}/${repo}/issues/`;
  const comments = new Map<number, { id: number; issue: number; body: string }>();
  const labels = new Map<number, string[]>();
  const calls: { method: string; path: string; body: unknown }[] = [];
  /** Set `down` to answer every request 503, as GitHub in an outage. */
  const outage = { down: false };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (outage.down) return reply(503, { message: "Service unavailable" });
      if (!req.headers.authorization?.includes("ghp_test"))
        return reply(401, { message: "Bad credentials" });
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname.startsWith(issues)) {
        calls.push({
          method: req.method ?? "",
          path: url.pathname,
          body: body ? JSON.parse(body) : null,
        });
        return issueApi(req.method ?? "", url.pathname.slice(issues.length), body, reply);
      }
      if (!url.pathname.startsWith(prefix)) return reply(404, { message: "Not Found" });
      const path = decodeURIComponent(url.pathname.slice(prefix.length));
      const existing = files.get(path);
      if (req.method === "GET") {
        if (existing)
          return reply(200, {
            type: "file",
            path,
            sha: existing.sha,
            encoding: "base64",
            content: Buffer.from(existing.content).toString("base64"),
          });
        const children = [...files.keys()].filter((p) => p.startsWith(`${path}/`));
        if (children.length === 0) return reply(404, { message: "Not Found" });
        const names = new Set(children.map((p) => p.slice(path.length + 1).split("/")[0]!));
        return reply(
          200,
          [...names].map((name) => ({
            name,
            path: `${path}/${name}`,
            type: files.has(`${path}/${name}`) ? "file" : "dir",
          })),
        );
      }
      const input = JSON.parse(body || "{}") as { message: string; content?: string; sha?: string };
      if (existing && input.sha !== existing.sha)
        return reply(409, { message: "sha does not match" });
      const commit = `c${String(++n).padStart(39, "0")}`;
      commits.push({ message: input.message, path, sha: commit });
      if (req.method === "PUT") {
        const sha = `b${String(n).padStart(39, "0")}`;
        files.set(path, {
          content: Buffer.from(input.content ?? "", "base64").toString("utf8"),
          sha,
        });
        return reply(existing ? 200 : 201, {
          content: { path, sha },
          commit: { sha: commit, message: input.message },
        });
      }
      if (req.method === "DELETE") {
        if (!existing) return reply(404, { message: "Not Found" });
        files.delete(path);
        return reply(200, { content: null, commit: { sha: commit, message: input.message } });
      }
      reply(405, { message: "Method not allowed" });
    });
  });
  /** `{n}/comments` (GET, POST), `comments/{id}` (PATCH), `{n}/labels` (GET). */
  function issueApi(
    method: string,
    rest: string,
    body: string,
    reply: (status: number, json: unknown) => void,
  ) {
    const listed = /^(\d+)\/(comments|labels)$/.exec(rest);
    const one = /^comments\/(\d+)$/.exec(rest);
    const shown = (c: { id: number; body: string }) => ({ id: c.id, body: c.body });
    if (listed && listed[2] === "labels" && method === "GET")
      return reply(
        200,
        (labels.get(Number(listed[1])) ?? []).map((name) => ({ name })),
      );
    if (listed && method === "GET")
      return reply(
        200,
        [...comments.values()].filter((c) => c.issue === Number(listed[1])).map(shown),
      );
    if (listed && method === "POST") {
      const c = { id: 1000 + comments.size, issue: Number(listed[1]), body: JSON.parse(body).body };
      comments.set(c.id, c);
      return reply(201, shown(c));
    }
    if (one && method === "PATCH") {
      const c = comments.get(Number(one[1]));
      if (!c) return reply(404, { message: "Not Found" });
      c.body = JSON.parse(body).body;
      return reply(200, shown(c));
    }
    reply(404, { message: "Not Found" });
  }

  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    files,
    commits,
    comments,
    labels,
    calls,
    outage,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
