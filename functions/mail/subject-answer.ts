// An answer piped into an email's subject (`{field:<id>}`, SPEC §8, §21). A respondent types it
// and the email goes to an address the respondent typed too, so the subject must not carry their
// message (SPEC §23 "Respondent copies are no relay"): plain text, at most 80 characters, no link.

/** The most characters of one answer in a subject. */
export const SUBJECT_ANSWER_MAX = 80;

// A link a mail client would make clickable: a scheme (`https://`, `mailto:`), `//host`, `www.`,
// or a bare host name (`evil.example/login`: labels and a top-level domain of letters), each with
// whatever follows it up to a space.
const NOT_IN_NAME = "(?<![\\p{L}\\p{N}_.-])";
const LINK = new RegExp(
  [
    `${NOT_IN_NAME}[a-z][a-z0-9+.-]*:\\/\\/\\S*`,
    `${NOT_IN_NAME}(?:mailto|javascript|data|tel|sms|file):\\S*`,
    "\\/\\/\\S+",
    `${NOT_IN_NAME}www\\.\\S*`,
    `${NOT_IN_NAME}[\\p{L}\\p{N}_-]+(?:\\.[\\p{L}\\p{N}_-]+)*\\.\\p{L}{2,}(?![\\p{L}\\p{N}_-])(?:[/:?#]\\S*)?`,
  ].join("|"),
  "giu",
);
// controls, format characters (bidirectional overrides, zero-width) and line or paragraph breaks
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

/**
 * The most characters of an answer read for its subject. LINK is quadratic in some runs (from
 * each `a` of `a+a+a+…` the scheme alternative scans to the end): one anonymous answer of 300,000
 * such characters held the event loop 32 s while its owner's email was composed. What is cut
 * here could never reach the 80 characters shown unless links before it were dropped, and a
 * fragment at the cut that LINK would not read as a link is not one by its own rule.
 */
const SUBJECT_ANSWER_READ = 2000;

/** An answer as a subject shows it: one line of plain text without links, cut at 80 characters. */
export function subjectAnswer(text: string): string {
  const plain = (text.length > SUBJECT_ANSWER_READ ? text.slice(0, SUBJECT_ANSWER_READ) : text)
    .toWellFormed() // a pair cut in two is not a character
    .normalize("NFKC") // a fullwidth `．` is a dot too
    .replace(INVISIBLE, " ")
    .replace(LINK, "")
    .replace(/\s+/g, " ")
    .trim();
  const chars = [...plain];
  return chars.length > SUBJECT_ANSWER_MAX
    ? `${chars.slice(0, SUBJECT_ANSWER_MAX - 1).join("")}…`
    : plain;
}
