// Lists of problems are capped (SPEC §23): an answer lists at most 100 and counts the rest, so
// neither the work of listing them nor the answer grows with what a hostile input holds.

/** Problems listed in one answer; the rest are counted ("…and N more"). */
export const MAX_PROBLEMS = 100;

/** A list that keeps its first `max` items and counts the rest. */
export class ProblemList<T> {
  readonly items: T[] = [];
  more = 0;
  private readonly max: number;
  constructor(max = MAX_PROBLEMS) {
    this.max = max;
  }
  /** Whether the list is full: a caller may stop looking for the details of more problems. */
  get full(): boolean {
    return this.items.length >= this.max;
  }
  push(item: T): void {
    if (this.full) this.more++;
    else this.items.push(item);
  }
  /** Counts `n` more problems without their details. */
  count(n = 1): void {
    this.more += n;
  }
  get total(): number {
    return this.items.length + this.more;
  }
}

/** `…and 1,234 more` for what was counted but not listed ("" when nothing was). */
export const andMore = (more: number): string =>
  more > 0 ? `…and ${more.toLocaleString("en-US")} more` : "";
