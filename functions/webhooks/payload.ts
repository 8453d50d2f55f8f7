// The JSON a receiver gets (SPEC §11). Built from the rows when the attempt is made, and the same
// on every retry: `timestamp` is when the event happened, not when it was sent.
import { recordedLogic } from "../services/record-logic.ts";
import { presetBody } from "./presets.ts";
import type { Claimed } from "./queue.ts";

/** What a body is made of: a delivery's event and the rows it names (not its target). */
export type EventSource = Omit<Claimed, "id" | "attempts" | "url" | "secret">;

/** The body, or null when a `response.created` no longer has its response (it was deleted). */
export function eventBody(e: EventSource): string | null {
  if (e.kind === "slack" || e.kind === "sheet") return presetBody(e);
  const form = { form_id: e.form_id, slug: e.slug, title: e.title };
  const timestamp = new Date(e.created_at).toISOString();
  if (e.event === "webhook.test")
    return JSON.stringify({
      type: e.event,
      timestamp,
      data: { form, webhook: { id: e.webhook_id } },
    });
  if (e.event === "response.deleted")
    return JSON.stringify({
      type: e.event,
      timestamp,
      data: { form, response: { id: e.response_id } },
    });
  if (!e.submitted_at || !e.payload) return null;
  const response = {
    id: e.response_id,
    submitted_at: new Date(e.submitted_at).toISOString(),
    payload: e.payload,
    ...(e.quiz && e.score ? { score: e.score } : {}),
    // the ending and the variables as the REST record has them: no keys on a form without logic
    ...recordedLogic(e),
    ...(e.commit_sha ? { commit_sha: e.commit_sha } : {}),
  };
  return JSON.stringify({ type: e.event, timestamp, data: { form, response } });
}
