// The form as the page's script receives it: the JSON the server renders into #fd-def.
import type { Field } from "../core/field-schema.ts";
import type { Compiled } from "../core/logic/compiled-types.ts";
import type { EndingView } from "./finish.ts";

export interface Definition {
  /**
   * The name of this browser's kept answers (restore.ts): `@<handler>/<slug>`, the same on a built
   * and a served page; never the slug alone, which another account may take once it is freed.
   */
  keep: string;
  type: string;
  fields: Field[];
  hidden: string[];
  humanness: boolean;
  randomize: boolean;
  showResults: boolean;
  apiBase: string;
  /**
   * How its API calls name the form (SPEC §22): its id on a page the server rendered, else its
   * slug; then `query` is `?built=<commit>`, the commit a page built from files was built at
   * (functions/services/form-address.ts).
   */
  form: string;
  query: string;
  access: string;
  /** On a preview page: the token that makes its submits test answers (SPEC §16). */
  preview: string | null;
  turnstileSiteKey: string | null;
  turnstileScript: string;
  pageCount: number;
  locale: string;
  /** This locale's strings the script needs (and no other locale's). */
  t: Record<string, string>;
  /** The label of each page's step, when the author named it. */
  steps: (string | null)[];
  endings: Record<string, EndingView>;
  /** settings.partial: answers saved on the server page by page (SPEC §25). */
  partial?: boolean;
  /**
   * The form's logic as the server compiled it (SPEC §24), when it has some: the page then loads
   * its chunk (logic.ts), which walks it.
   */
  logic?: Compiled;
  /** The form version the page was built from; its submits say so (null: built from a file). */
  version: number | null;
}
