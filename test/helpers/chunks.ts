/** `bytes` as the chunks a stream would hand over, cut at `cuts` (ascending offsets). */
export async function* cutAt(
  bytes: Uint8Array,
  cuts: readonly number[],
): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
}
