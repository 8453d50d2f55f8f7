// A form file's error, and how it is printed: apart from the parser, so a command that only
// prints errors does not load it (YAML, the schema, zod).

export interface FormFileError {
  file: string;
  line: number;
  path: string;
  /** The path for people: `fields[2] (team_size).max`. */
  where?: string;
  message: string;
}

/** `file:line: path: message` in plain text, the way `formdown validate` and the build print errors. */
export function formatFormFileError(e: FormFileError): string {
  const where = e.where ?? e.path;
  return where
    ? `${e.file}:${e.line}: ${where}: ${e.message}`
    : `${e.file}:${e.line}: ${e.message}`;
}
