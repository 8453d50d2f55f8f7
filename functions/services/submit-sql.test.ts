import { describe, expect, it } from "vitest";
import { HANDED_OVER, type ResponseRow, type SubmitWrite, submitStatement } from "./submit-sql.ts";

const FORM = "00000000-0000-4000-8000-000000000001";
const write = (row: Partial<ResponseRow> = {}, extra: Partial<SubmitWrite> = {}): SubmitWrite => ({
  row: { id: crypto.randomUUID(), form_id: FORM, payload: '{"a":1}', ...row },
  sequence: "formdown_seq_x",
  ...extra,
});
/** The column list of the statement's INSERT into responses. */
const columns = (text: string) => /insert into responses \(([^)]*)\)/.exec(text)![1]!.split(", ");

// every column a submit can write, with a value
const full: ResponseRow = {
  id: crypto.randomUUID(),
  form_id: FORM,
  payload: "{}",
  score: '{"points":1}',
  commit_sha: "abc",
  seconds: 12,
  version: 3,
  lang: "fr",
  idempotency_key: "k",
  idempotency_hash: "h",
  test: true,
  invite: "t",
  invite_email: "a@example.com",
};

describe("the submit statement", () => {
  it("writes a lone plain submit as one bare INSERT of the columns it holds", () => {
    const { text, params } = submitStatement([write({ lang: "en" })]);
    expect(text.startsWith("insert into responses")).toBe(true);
    expect(columns(text)).toEqual(["id", "form_id", "payload", "lang", "seq"]);
    expect(params).toHaveLength(5);
  });

  it("writes several plain submits as one INSERT of arrays, a column when any row holds it", () => {
    const { text, params } = submitStatement([write({ score: "{}" }), write(), write()]);
    expect(text).toContain("unnest(");
    expect(columns(text)).toEqual(["id", "form_id", "payload", "score", "seq"]);
    expect(params[3]).toEqual(["{}", null, null]);
  });

  it("writes every column of a response through both shapes", () => {
    const names = Object.keys(full);
    expect(columns(submitStatement([write(full)]).text)).toEqual([...names, "seq"]);
    expect(columns(submitStatement([write(full), write(full)]).text)).toEqual([...names, "seq"]);
  });

  it("numbers a test answer 0 without touching the form's sequence", () => {
    const { text, params } = submitStatement([write({ test: true })]);
    expect(text).not.toContain("nextval");
    expect(params).not.toContain("formdown_seq_x");
  });

  it("counts a capped submit and guards its INSERT with the counter", () => {
    const { text } = submitStatement([write({}, { maxResponses: 10 })]);
    expect(text).toMatch(/^with b as/);
    expect(text).toContain("from c");
    expect(text).toContain("(select n from c) as n");
  });

  it("writes deliveries leased, due, or none when handed over", () => {
    const hooked = write({}, { hooks: ["w1"] });
    expect(submitStatement([hooked], 30).text).toContain("d.id as delivery_id");
    expect(submitStatement([hooked], null).text).toContain("insert into webhook_deliveries");
    const handed = submitStatement([hooked], HANDED_OVER).text;
    expect(handed).not.toContain("webhook_deliveries");
    expect(handed).toContain("returning id, seq, submitted_at");
  });
});
