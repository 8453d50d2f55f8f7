// Adds lock entries for other platforms' optional binaries the registry here does not serve,
// so `npm ci` (which checks the lock is complete) skips them by os/cpu instead of failing.
import { readFileSync, writeFileSync } from "node:fs";

const path = process.argv[2];
const lock = JSON.parse(readFileSync(path, "utf8"));
const pkgs = lock.packages;
let added = 0;
for (const entry of Object.values(pkgs)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    if (pkgs[target]) continue;
    const os = ["android", "darwin", "linux", "win32", "freebsd"].find((o) => name.includes(o));
    const cpu = ["arm64", "x64", "ia32", "wasm32"].find((c) => name.includes(c));
    const libc = name.includes("musl") ? ["musl"] : name.includes("gnu") ? ["glibc"] : undefined;
    pkgs[target] = {
      version,
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc } : {}),
    };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} entries`);
