import { describe, expect, it } from "vitest";
import { preparedStatements } from "./db.ts";

describe("prepared statements", () => {
  it("are off behind a transaction pooler and when the URL says so", () => {
    expect(preparedStatements("postgres://u@db.example.com:5432/app")).toBe(true);
    expect(preparedStatements("postgres://u@pooler.supabase.com:6543/postgres")).toBe(false);
    expect(preparedStatements("postgres://u@h:5432/app?pgbouncer=true")).toBe(false);
    expect(preparedStatements("postgres://u@h:5432/app?prepare=false")).toBe(false);
    expect(preparedStatements("postgres://u@h:6543/app?prepare=true")).toBe(true);
  });
});
