/** The stored value of a choice option: its label (kept free of zod so pages can import it). */
export const optionValue = (option: string | { label: string }): string =>
  typeof option === "string" ? option : option.label;

/** Labels an option had before (`{label, formerly}`): their answers count as this option. */
export const optionFormerly = (option: string | { formerly?: string[] | undefined }): string[] =>
  typeof option === "string" ? [] : (option.formerly ?? []);
