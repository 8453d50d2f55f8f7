/**
 * A streamed request body leaves every chunk it passed on as garbage outside the JavaScript heap
 * (the socket's buffers), and V8 collects those only once some 64 MB of them have piled up: 8
 * concurrent 60 MB uploads grew the server's RSS by 48–109 MB (bench/uploads.ts). A
 * young-generation collection after every 4 MB streamed frees them as they go (a scavenge of a
 * small young generation takes well under a millisecond): +16–20 MB for the same run. A runtime
 * that cannot hand out its collector (not Node) streams as before.
 */
const EVERY = 4 * 1024 * 1024;
let pending = 0;
let collect: ((options: { type: "minor" }) => void) | null | undefined;

type Builtins = { getBuiltinModule?: (name: string) => unknown };

function collector() {
  if (collect !== undefined) return collect;
  collect = null;
  try {
    const process = (globalThis as { process?: Builtins }).process;
    const v8 = process?.getBuiltinModule?.("node:v8") as
      | { setFlagsFromString(flags: string): void }
      | undefined;
    const vm = process?.getBuiltinModule?.("node:vm") as
      | { runInNewContext(code: string): unknown }
      | undefined;
    if (!v8 || !vm) return collect;
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    if (typeof gc === "function") collect = gc as (options: { type: "minor" }) => void;
  } catch {
    // no collector to call: the garbage goes with the runtime's own collections
  }
  return collect;
}

/** Counts bytes a body streamed; frees the spent chunks after every 4 MB of them. */
export function streamed(bytes: number): void {
  pending += bytes;
  if (pending < EVERY) return;
  pending = 0;
  collector()?.({ type: "minor" });
}
