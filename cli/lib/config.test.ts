import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutConfigPath, resolveSettings } from "./config.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A checkout (cwd) and a home, each empty; `files` written relative to them. */
function place(files: { checkout?: Record<string, string>; home?: Record<string, string> }) {
  const root = mkdtempSync(join(tmpdir(), "formdown-config-"));
  dirs.push(root);
  const cwd = join(root, "checkout");
  const home = join(root, "home");
  for (const [base, set] of [
    [cwd, files.checkout ?? {}],
    [home, files.home ?? {}],
  ] as const) {
    mkdirSync(base, { recursive: true });
    for (const [path, text] of Object.entries(set)) {
      mkdirSync(join(base, path, ".."), { recursive: true });
      writeFileSync(join(base, path), text);
    }
  }
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  return { cwd, env };
}

const userConfig = (url: string, key: string) => ({
  ".config/formdown/config.json": JSON.stringify({ url, key }),
});

describe("where the CLI finds its server and key", () => {
  it("finds the running server's URL beside its key (PORT=4650 npm start)", () => {
    const { cwd, env } = place({
      checkout: { ".formdown/url": "http://127.0.0.1:4650\n", ".formdown/api-key": "fd_local\n" },
    });
    expect(resolveSettings({}, env, cwd)).toEqual({
      url: "http://127.0.0.1:4650",
      key: "fd_local",
      keySource: join(cwd, ".formdown/api-key"),
    });
  });

  it("this checkout's server wins over the server a per-user login saved", () => {
    const { cwd, env } = place({
      checkout: { ".formdown/url": "http://127.0.0.1:4650\n", ".formdown/api-key": "fd_local\n" },
      home: userConfig("https://forms.example.com", "fd_remote"),
    });
    expect(resolveSettings({}, env, cwd)).toMatchObject({
      url: "http://127.0.0.1:4650",
      key: "fd_local",
    });
    // and elsewhere, the per-user login still holds
    const other = place({ home: userConfig("https://forms.example.com", "fd_remote") });
    expect(resolveSettings({}, { ...other.env, HOME: env.HOME }, other.cwd)).toMatchObject({
      url: "https://forms.example.com",
      key: "fd_remote",
    });
  });

  it("a per-checkout config (login --here) wins over the per-user one and the local server", () => {
    const { cwd, env } = place({
      checkout: {
        ".formdown/config.json": JSON.stringify({
          url: "https://staging.example.com",
          key: "fd_staging",
        }),
        ".formdown/url": "http://127.0.0.1:4650\n",
        ".formdown/api-key": "fd_local\n",
      },
      home: userConfig("https://forms.example.com", "fd_remote"),
    });
    expect(resolveSettings({}, env, cwd)).toEqual({
      url: "https://staging.example.com",
      key: "fd_staging",
      keySource: checkoutConfigPath(cwd),
    });
    // flags and the environment still win over every file
    expect(
      resolveSettings({}, { ...env, FORMDOWN_URL: "localhost:9000", FORMDOWN_API_KEY: "k" }, cwd),
    ).toMatchObject({ url: "http://localhost:9000", key: "k" });
    // a key saved for another URL is not sent to this one
    expect(resolveSettings({ url: "https://other.example.com" }, env, cwd)).toMatchObject({
      key: undefined,
    });
  });

  it("never sends the environment's key to a server only the checkout names", () => {
    // a repository can carry .formdown/config.json or .formdown/url (git add -f): a key from the
    // environment went to whatever server it named
    const checkouts: Record<string, string>[] = [
      { ".formdown/config.json": JSON.stringify({ url: "https://collector.example" }) },
      { ".formdown/url": "https://collector.example\n" },
    ];
    for (const checkout of checkouts) {
      const { cwd, env } = place({ checkout });
      expect(() => resolveSettings({}, { ...env, FORMDOWN_API_KEY: "fd_secret" }, cwd)).toThrow(
        /FORMDOWN_API_KEY is not sent to https:\/\/collector\.example, which this checkout names/,
      );
      // the environment's (or a flag's) URL takes it there on purpose
      expect(
        resolveSettings(
          {},
          { ...env, FORMDOWN_API_KEY: "fd_secret", FORMDOWN_URL: "https://collector.example" },
          cwd,
        ),
      ).toMatchObject({ url: "https://collector.example", key: "fd_secret" });
    }
    // a local server the checkout names is this machine
    const local = place({ checkout: { ".formdown/url": "http://127.0.0.1:4650\n" } });
    expect(
      resolveSettings({}, { ...local.env, FORMDOWN_API_KEY: "fd_secret" }, local.cwd),
    ).toMatchObject({ url: "http://127.0.0.1:4650", key: "fd_secret" });
  });

  it("a broken or empty file is passed over, not fatal", () => {
    const { cwd, env } = place({
      checkout: { ".formdown/config.json": "{not json", ".formdown/url": "\n" },
      home: { ".config/formdown/config.json": "[1]" },
    });
    expect(resolveSettings({}, env, cwd)).toEqual({
      url: "http://localhost:4321",
      key: undefined,
      keySource: "none",
    });
  });
});
