import type { PageModel } from "../src/lib/page-model.ts";
import type { Config } from "./config.ts";
import type { Db } from "./db/db.ts";
import type { RateLimiter } from "./limiter/rate-limiter.ts";
import type { PageOrigins } from "./links/page-origins.ts";
import type { FormCache } from "./services/form-cache.ts";

/** Verifies the anti-bot token a submit carries (ALTCHA embedded, Turnstile in production). */
export interface AntiBot {
  kind: "altcha" | "turnstile";
  /** Turnstile's public site key, for the page. */
  siteKey?: string;
  /** A fresh ALTCHA challenge (embedded only). */
  challenge?(): Promise<unknown>;
  verify(token: string, ip: string | undefined): Promise<boolean>;
}

/** Where uploaded files live: a local folder embedded, Supabase Storage in production. */
export interface FileStorage {
  /** Where the files are, in words (`formdown doctor` names it): a folder, a bucket. */
  where: string;
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** Stores a stream as it arrives (uploads: memory does not grow with the file); an error in it fails the write. */
  write(key: string, data: ReadableStream<Uint8Array>, contentType: string): Promise<void>;
  /** A stored file as a stream (a download: memory does not grow with the file), or null. */
  get(key: string): Promise<{ data: ReadableStream<Uint8Array>; contentType: string } | null>;
  remove(key: string): Promise<void>;
}

/** The form repository: local git embedded, GitHub in production; files are the source. */
export interface FormRepository {
  kind: "git" | "github" | "plain";
  write(path: string, content: string, message: string): Promise<{ sha: string | null }>;
  remove(path: string, message: string): Promise<{ sha: string | null }>;
  read(path: string): Promise<string | null>;
  list(dir: string): Promise<string[]>;
}

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Which service carries the mail (doctor and the health detail say it). */
  kind?: "postmark" | "smtp";
  send(message: MailMessage): Promise<{ id: string }>;
}

export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, error?: unknown, fields?: Record<string, unknown>): void;
}

/** MCP Apps (SPEC §18) where the runtime can build them (the Node server). */
export interface UiApps {
  /** The self-contained HTML document of `ui://formdown/<name>`. */
  document(name: "form" | "report"): Promise<string>;
  /** A form's respondent page as the pages' components render it; null without a pages build. */
  page(model: PageModel): Promise<string | null>;
}

export interface AppContext {
  config: Config;
  db: Db;
  antibot: AntiBot;
  storage: FileStorage;
  repo: FormRepository;
  /** Null in embedded mode: the outbox itself is the mailbox. */
  mailer: Mailer | null;
  log: Log;
  /** Short-lived form lookups for the submit path (see services/form-cache.ts). */
  formCache: FormCache<unknown>;
  /** Rate-limit counts in memory, shared through the database in batches (limiter/). */
  limiter: RateLimiter;
  /** Which origin serves each form's page: the static host's when it holds it, else the API's. */
  pages: PageOrigins;
  /** Absent where the apps cannot be built (Deno): no ui:// resources are offered there. */
  apps?: UiApps | undefined;
}
