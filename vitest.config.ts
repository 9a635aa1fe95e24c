import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string; homepage: string };

/**
 * Tests that kill processes mid-write, measure a process's memory, install the packed package
 * or build large repositories: minutes, not seconds. `npm test` runs both projects; during
 * development `npx vitest run --project fast` leaves these out.
 */
const SLOW = [
  "test/runs/crash-recovery.test.ts",
  "test/workspace/kill9.test.ts",
  "test/install/**/*.test.ts",
  "test/patch/op-list-memory.test.ts",
  "test/reconcile/scale.test.ts",
];

export default defineConfig({
  define: { __NOMA_RECONCILE_VERSION__: JSON.stringify(pkg.version), __NOMA_RECONCILE_HOMEPAGE__: JSON.stringify(pkg.homepage) },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: SLOW } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});
