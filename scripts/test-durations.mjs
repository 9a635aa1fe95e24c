#!/usr/bin/env node
// Rewrite test/durations.json (the order test files start in: test/helpers/duration-sequencer.ts)
// from vitest's results cache, which a full `npm test` (or `npx vitest run`) leaves in
// node_modules/.vite/vitest/*/results.json. Seconds per file, rounded to a tenth; files the cache
// does not know keep their old figure. Usage: node scripts/test-durations.mjs
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cacheDir = join(root, "node_modules/.vite/vitest");
const target = join(root, "test/durations.json");
const old = existsSync(target) ? JSON.parse(readFileSync(target, "utf8")) : {};
const fresh = {};
if (existsSync(cacheDir)) {
  for (const d of readdirSync(cacheDir)) {
    const f = join(cacheDir, d, "results.json");
    if (!existsSync(f)) continue;
    for (const [key, r] of JSON.parse(readFileSync(f, "utf8")).results) {
      const path = key.slice(key.indexOf(":") + 1);
      if (existsSync(join(root, path)) && typeof r?.duration === "number") fresh[path] = Math.round(r.duration / 100) / 10;
    }
  }
}
if (Object.keys(fresh).length === 0) {
  console.error(`scripts/test-durations.mjs: no results in ${cacheDir}; run the tests first (npm test)`);
  process.exit(2);
}
const merged = { ...Object.fromEntries(Object.entries(old).filter(([p]) => existsSync(join(root, p)))), ...fresh };
const sorted = Object.fromEntries(Object.entries(merged).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
writeFileSync(`${target}.tmp`, `${JSON.stringify(sorted, null, 2)}\n`);
renameSync(`${target}.tmp`, target);
console.log(`test/durations.json: ${Object.keys(sorted).length} files (${Object.keys(fresh).length} from vitest's cache)`);
