// The submit request (its body is submit.ts'), and the API's answer in one shape.

export interface Score {
  points: number;
  max_points: number;
  percent: number;
  passed: boolean | null;
}

export interface Feedback {
  field: string;
  correct: boolean;
  explanation?: string;
}

export interface SubmitAnswer {
  status: number;
  error?: string;
  code?: string;
  details?: { field: string; message: string }[];
  score?: Score;
  feedback?: Feedback[];
  /** Which ending to show (quizzes: pass or fail), decided by the API. */
  ending?: "default" | "pass" | "fail";
}

export type Sender = (
  url: string,
  idempotencyKey: string,
  body: Record<string, unknown>,
) => Promise<SubmitAnswer>;

let through: Sender | null = null;

/**
 * Sends every submit through another channel: the MCP form app (src/apps/) has no network of its
 * own, so its page hands the body to a server tool instead, as a test answer (SPEC §18).
 */
export function sendThrough(sender: Sender): void {
  through = sender;
}

/** POSTs a submit; a retry passes the same Idempotency-Key, so it can never store twice. */
export async function send(
  url: string,
  idempotencyKey: string,
  body: Record<string, unknown>,
): Promise<SubmitAnswer> {
  if (through) return through(url, idempotencyKey, body);
  let res: Response;
  // an instance that is stopping answers 503 with Retry-After before it reads the submit
  // (SPEC §17): sent again, with the same key, to the instance that takes over
  for (let tries = 1; ; tries++) {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": idempotencyKey },
      body: JSON.stringify(body),
    });
    if (res.status !== 503 || tries > 3) break;
    const wait = Math.min(Number(res.headers.get("retry-after")) || 1, 5);
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
  const json = (await res.json().catch(() => ({}))) as Omit<SubmitAnswer, "status">;
  return { ...json, status: res.status };
}

/** A drop-off beacon (view, start, progress) to `url`, sent even while the page closes. */
export function beacon(url: string, body: object): void {
  void fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    keepalive: true,
  }).catch(() => {});
}
