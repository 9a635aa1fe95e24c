/**
 * kill -9 at random points of a run, many times: the process is killed
 * (SIGKILL: no cleanup, no `finally`) at a fault-injection point of the step
 * commit, the database write, the patch application or the patch engine —
 * each point, each time it is reached — and at random moments by a timer.
 * Afterwards `runs list` (the next command) recovers, and:
 *
 * - no temp directory and no stray patch backup is left; every step directory
 *   is complete (input.json, output.json, both logs; a check's verdict and
 *   scorecard) and has its database row, and every row its directory;
 * - every run directory has its row, none is left `running`, event numbers
 *   run 1..n without a gap;
 * - everything the database held at the kill is still there (steps, events);
 * - the run's worktree is wholly before or wholly after the act step's patch
 *   (code, document and transcript together), never in between, and the
 *   user's checkout is exactly as it was (files, status, index, stash, HEAD);
 * - `run --resume` then finishes the run in the same worktree: PASS, the patch
 *   applied once, the transcript verifies, the drift reconciled, the result
 *   committed on the run's branch.
 *
 * NOMA_RECONCILE_CRASH_SEED fixes the random choices (the seed is printed on failure).
 *
 * The tests are split in three files (this one, crash-recovery-steps.test.ts and
 * crash-recovery-random.test.ts: the points in three slices, in order) so that two test workers
 * share them; the repository and the checks are in helpers/crash-run.ts.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readNormaState } from "../../src/runs/norma-db.js";
import { CLI } from "../helpers/run-cli.js";
import { killedAt, POINTS, seed, walk } from "./helpers/crash-run.js";
import { cli, execAgent, runRepo, SPEC } from "./helpers/run-repo.js";

describe(`kill -9 during a run, then recovery (seed ${seed})`, () => {
  // The first 15 points, in order; the others are in crash-recovery-steps.test.ts and crash-recovery-random.test.ts.
  it.each(POINTS.slice(0, 15))("killed at %s: the next command recovers; resume finishes", killedAt);

  it("an agent left running by a killed run is ended by recovery before temp directories are removed", async () => {
    // The do agent writes into its step directory only after a long pause: an orphan would recreate the removed temp directory.
    const root = runRepo({
      config: { agents: { do: execAgent("do.json") } },
      behaviors: { "do.json": { sleepMs: 60_000, files: { "files/late.txt": "late\n" } } },
    });
    const env = { ...process.env, CI: "1", NO_COLOR: "1" };
    const child = spawn(process.execPath, [CLI, "run", "--spec", SPEC], { cwd: root, env, stdio: "ignore" });
    const closed = new Promise((r) => child.on("close", r));
    const pidFile = join(root, ".norma/locks/agent.json");
    for (let i = 0; i < 800 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 25));
    const agentPid = JSON.parse(readFileSync(pidFile, "utf8")).pid as number;
    child.kill("SIGKILL");
    await closed;
    expect(() => process.kill(agentPid, 0)).not.toThrow(); // the orphan lives on
    const list = cli(root, ["runs", "list"]);
    expect(list.code).toBe(0);
    let alive = true;
    for (let i = 0; i < 400 && alive; i++) {
      try {
        process.kill(agentPid, 0);
        await new Promise((r) => setTimeout(r, 25));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
    expect(walk(join(root, ".norma/runs")).filter((f) => f.includes(".tmp-"))).toEqual([]);
    const state = (await readNormaState(root))!;
    expect(state.runs[0]).toMatchObject({ status: "stopped" });
    expect(state.events(state.runs[0]!.run_id).map((e) => e.type)).toContain("run_interrupted");
  });
});
