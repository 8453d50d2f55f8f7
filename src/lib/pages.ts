// The page each field sits on lives in the core: the piping rules need it too.
export { pageIndexes } from "../core/page-indexes.ts";
