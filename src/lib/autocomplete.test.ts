import { describe, expect, it } from "vitest";
import { autocompleteFor, inputTypeFor } from "./autocomplete.ts";

describe("autofill hints", () => {
  it.each([
    ["name", "text", "name"],
    ["full_name", "text", "name"],
    ["first_name", "text", "given-name"],
    ["prenom", "text", "given-name"],
    ["surname", "text", "family-name"],
    ["phone", "text", "tel"],
    ["work_email", "text", "email"],
    ["anything", "email", "email"],
    ["company", "text", "organization"],
    ["postal_code", "text", "postal-code"],
    ["date_of_birth", "date", "bday"],
  ])("%s (%s) → %s", (id, type, hint) => {
    expect(autocompleteFor(id, type)).toBe(hint);
  });

  it("leaves other fields to the browser (no hint, never off)", () => {
    expect(autocompleteFor("message", "text")).toBeUndefined();
    expect(autocompleteFor("name", "textarea")).toBeUndefined();
    expect(autocompleteFor("start", "date")).toBeUndefined();
  });

  it("brings the phone keyboard for a phone field", () => {
    expect(inputTypeFor("tel", "text")).toBe("tel");
    expect(inputTypeFor("name", "text")).toBe("text");
  });
});
