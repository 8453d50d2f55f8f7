// The mail provider down, then up (see scenarios.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ChildServer, firstKey, startChild } from "./child-server.ts";
import { sleep } from "./common.ts";
import { FAULT_FORM, submitLoad, summarise } from "./load.ts";

export interface MailOutageResult {
  acknowledged: number;
  /** Subjects as Postmark received them, in arrival order. */
  subjects: string[];
  /** Failed deliveries Postmark answered with its 500 while down. */
  refused: number;
  /** ms from Postmark coming back to the last email arriving. */
  deliveredMs: number;
  output: string;
}

/**
 * Postmark (the loopback fake) down while `count` submits arrive, each due an email (plus a
 * milestone), then up again: the server's own sender must deliver every email exactly once.
 */
export async function mailOutage(options: {
  count: number;
  downMs: number;
  /** How long to watch for duplicates after the last expected email. */
  settleMs: number;
}): Promise<MailOutageResult> {
  const { startPostmarkFake } = await import("../fakes/postmark.ts");
  const postmark = await startPostmarkFake();
  let refused = 0;
  const dataDir = mkdtempSync(join(tmpdir(), "formdown-fault-data-"));
  let server: ChildServer | null = null;
  try {
    server = await startChild({
      dataDir,
      env: { POSTMARK_SERVER_TOKEN: "pm-fault-token", POSTMARK_API_URL: postmark.url },
    });
    const key = firstKey(dataDir);
    const res = await fetch(`${server.url}/api/forms`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        ...FAULT_FORM,
        slug: "mail",
        notifications: {
          email: ["owner@example.com"],
          subject: "R {field:note}",
          strategy: { immediate_count: options.count, milestones: { absolute: [options.count] } },
        },
      }),
    });
    if (res.status !== 201) throw new Error(`create form: ${res.status} ${await res.text()}`);
    postmark.fail(true);
    const before = postmark.sent.length;
    let n = 0;
    const outcomes = await submitLoad(server.url, "mail", {
      concurrency: 8,
      stop: () => n++ >= options.count,
      fields: (i) => ({ note: `#${i}` }),
    });
    const acknowledged = summarise(outcomes).acknowledged.length;
    await sleep(options.downMs);
    // the fake counts nothing it refused; the outbox says how many tries failed
    const outbox = (await (
      await fetch(`${server.url}/api/outbox?limit=200`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as { emails: { attempts: number; status: string }[] };
    refused = outbox.emails.filter((e) => e.status === "pending" && e.attempts > 0).length;
    postmark.fail(false);
    const back = performance.now();
    const expected = acknowledged + 1;
    const deadline = back + 60_000;
    while (postmark.sent.length - before < expected && performance.now() < deadline)
      await sleep(100);
    const deliveredMs = Math.round(performance.now() - back);
    await sleep(options.settleMs);
    return {
      acknowledged,
      subjects: postmark.sent.slice(before).map((e) => e.Subject),
      refused,
      deliveredMs,
      output: server.output(),
    };
  } finally {
    await server?.stop();
    await postmark.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
