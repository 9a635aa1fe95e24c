import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { DurationSequencer } from "./test/helpers/duration-sequencer.js";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string; homepage: string };

/**
 * Node reads the file NODE_EXTRA_CA_CERTS names at every start, before any code runs: with the
 * system bundle (this machine sets it for npm's registry proxy) `node -e 0` costs 0.117 s of CPU,
 * without it 0.044 s. None of the processes the tests start makes a TLS connection (the CLI, the
 * MCP, LSP and HTTP servers, git, the fake agents), so the workers and everything they spawn run
 * without it; npm in the install tests gets it back (test/install/install-helpers.ts `userEnv`).
 * Measured on test/cli/patch + check-fix, one worker: 30.6 → 23.5 s CPU (docs/design/README.md).
 */
const extraCaCerts = process.env["NODE_EXTRA_CA_CERTS"];
if (extraCaCerts !== undefined) {
  process.env["NOMA_RECONCILE_TEST_EXTRA_CA_CERTS"] = extraCaCerts;
  delete process.env["NODE_EXTRA_CA_CERTS"];
}

/**
 * Tests that kill processes mid-write, measure a process's memory, install the packed package
 * or build large repositories: minutes, not seconds. `npm test` runs both projects; during
 * development `npx vitest run --project fast` leaves these out.
 */
const SLOW = [
  "test/runs/crash-recovery.test.ts",
  "test/runs/crash-recovery-steps.test.ts",
  "test/runs/crash-recovery-random.test.ts",
  "test/workspace/kill9.test.ts",
  "test/workspace/kill9-intents.test.ts",
  "test/install/**/*.test.ts",
  "test/patch/op-list-memory.test.ts",
  "test/reconcile/scale.test.ts",
  "test/mcp/message-size.test.ts",
];

/**
 * How many test files run at once: `VITEST_MAX_WORKERS=<n>` (or `<n>%` of the cores), e.g. 1 on a
 * machine that is busy with other work. Unset: one more than the cores — most tests wait for the
 * processes they spawn (the CLI, git, servers) and the kill -9 tests wait for their moments, so one
 * worker per core leaves a core idle while a file waits (vitest's own default, the cores less one,
 * leaves one idle always). Measured in docs/design/README.md. `--maxWorkers` on the command line still wins.
 */
function maxWorkers(): { maxWorkers?: number | string } {
  const v = process.env["VITEST_MAX_WORKERS"]?.trim();
  if (v === undefined || v === "") return { maxWorkers: availableParallelism() + 1 };
  if (/^[1-9]\d*$/.test(v)) return { maxWorkers: Number(v) };
  if (/^[1-9]\d*%$/.test(v)) return { maxWorkers: v };
  throw new Error(`VITEST_MAX_WORKERS takes a number of workers (4) or a share of the cores (50%), not ${JSON.stringify(v)}`);
}

export default defineConfig({
  define: { __NOMA_RECONCILE_VERSION__: JSON.stringify(pkg.version), __NOMA_RECONCILE_HOMEPAGE__: JSON.stringify(pkg.homepage) },
  test: {
    testTimeout: 60_000,
    // Every temporary directory of the run under one root, removed at its end (test/helpers/run-temp-root.ts).
    globalSetup: ["test/helpers/run-temp-root.ts"],
    hookTimeout: 60_000,
    reporters: ["default"],
    // Longest files first, across both projects (test/helpers/duration-sequencer.ts).
    sequence: { sequencer: DurationSequencer },
    ...maxWorkers(),
    projects: [
      // One module graph per worker, not per file: the fast files import the same library, and
      // re-importing it for each file cost 166 s of a 966 s run (docs/design/README.md). No test
      // changes process-wide state (env, cwd, globals, spies) without restoring it.
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: SLOW, isolate: false } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});
