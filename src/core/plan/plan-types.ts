// The plan's shape (SPEC §16): what `formdown plan --json`, REST and MCP answer, and what the
// pull-request comment reads.

/** What a change does (SPEC §16). */
export type ChangeKind =
  | "form_created"
  | "field_added"
  | "field_removed"
  | "field_renamed"
  | "field_type_changed"
  | "option_added"
  | "option_removed"
  | "option_renamed"
  | "rule_changed"
  | "access_changed"
  | "closed"
  | "reopened"
  | "slug_changed"
  | "form_removed"
  | "content_changed"
  | "field_moved"
  | "translation_added"
  | "translation_changed"
  | "translation_removed"
  | "retention_changed";

export interface Change {
  kind: ChangeKind;
  field?: string;
  option?: string;
  /** The language of a translation change (SPEC §20). */
  lang?: string;
  /** One line a person reads, e.g. `field fix → fix_first (formerly)`. */
  detail: string;
  /** The stored answers (responses) the change touches. */
  answers_affected: number;
}

/** The plan of a deploy: what would change and which stored answers it touches. */
export interface Plan {
  slug: string;
  /** The live version the change starts from; null for a form that does not exist yet. */
  from_version: number | null;
  changes: Change[];
  /** Some stored answers would become unreachable: the change needs confirmation. */
  destructive: boolean;
  summary: string;
}
