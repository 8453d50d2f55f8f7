import { describe, expect, it } from "vitest";
import { readConfig } from "../config.ts";
import { smtpMailer } from "./smtp-mailer.ts";

describe("smtpMailer", () => {
  it("refuses at start-up an SMTP_URL that is no smtp:// or smtps:// URL, in plain words", () => {
    for (const bad of ["localhost:25", "http://mail.example.com", "smtp://"])
      expect(() => smtpMailer(readConfig({ SMTP_URL: bad }))).toThrow(/SMTP_URL must look like/);
  });

  it("takes smtp:// and smtps:// URLs, with or without a user", () => {
    for (const good of ["smtp://127.0.0.1:2525", "smtps://user:pass@smtp.example.com:465"])
      expect(smtpMailer(readConfig({ SMTP_URL: good })).kind).toBe("smtp");
  });
});
