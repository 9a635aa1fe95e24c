// `npm run bench`: build, then run every bench/*.bench.mjs in its own process, one after
// another (never in parallel: they measure time). Pass names to run a subset:
//   npm run bench -- parse patch
import { readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "inherit" });
const wanted = process.argv.slice(2);
const benches = readdirSync(join(root, "bench"))
  .filter((f) => f.endsWith(".bench.mjs"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
let failed = 0;
for (const b of benches) {
  process.stdout.write(`\n=== ${b} ===\n`);
  try {
    execFileSync(process.execPath, ["--expose-gc", join(root, "bench", b)], { cwd: root, stdio: "inherit" });
  } catch {
    failed++;
    process.stdout.write(`${b} failed\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
