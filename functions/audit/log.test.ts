import { describe, expect, it } from "vitest";
import { auditDetail } from "./log.ts";

describe("auditDetail", () => {
  it("keeps ids, formats and filters, and never a password, token, receiver URL or definition", () => {
    const detail = auditDetail({
      slug: "team",
      id: "3f2c",
      format: "csv",
      where: [{ field: "score", op: "gte", value: 4 }],
      include_test: false,
      password: "hunter22",
      access_token: "tok",
      url: "https://hooks.slack.com/services/secret",
      markdown: "---\ntitle: x\n---",
      fields: { name: "Ana" },
    });
    expect(detail).toEqual({
      id: "3f2c",
      format: "csv",
      where: '[{"field":"score","op":"gte","value":4}]',
      include_test: false,
    });
  });

  it("cuts a long value to 500 characters", () => {
    const detail = auditDetail({ where: "x".repeat(2000) });
    expect(String(detail.where)).toHaveLength(501);
  });
});
