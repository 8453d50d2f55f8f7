/**
 * An option's value exactly as typed, the last one given: cac's parser (mri) reads digits as a
 * number before the option's type sees them, so a commit id of digits alone (the all-zeros one
 * CI passes for a first push) came out as `0`.
 */
export function rawOption(argv: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    if (arg === flag && i + 1 < argv.length) value = argv[++i];
    else if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
  }
  return value;
}

/** Git's "no commit" (a push that created the branch): there is nothing to diff against. */
export const isZeroCommit = (ref: string) => /^0{40}$|^0{64}$/.test(ref);
