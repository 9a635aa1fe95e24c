/**
 * `run` compiles SQLite with the baseline WebAssembly tier only once it needs it (BLAKE3 first, at full speed:
 * src/cli/startup/prepare-short-run-wasm.ts, set by src/cli/commands/run-command.ts); NOMA_RECONCILE_WASM_TIERING=default
 * keeps V8's tiering. Which tier runs SQLite must change nothing of what a run does: the same run of the crash
 * repository (drift, a FAIL, the act patch, a PASS, marking, the snapshot, the result's commit) both ways, the same
 * answer, the same records and the same result in the worktree.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { readNormaState } from "../../src/runs/norma-db.js";
import { crashRepo } from "./helpers/crash-run.js";
import { cli, SPEC, treeSnapshot, worktreeOf } from "./helpers/run-repo.js";

const TRANSCRIPT = "docs/guide.noma.patches";

/** What one run did, with what differs between any two runs (its id, times, commit hashes) left out. */
async function runOnce(env: NodeJS.ProcessEnv): Promise<unknown> {
  const root = crashRepo();
  const r = cli(root, ["run", "--spec", SPEC, "--format", "json"], env);
  expect(r.code, r.stderr).toBe(0);
  const result = JSON.parse(r.stdout).result;
  const state = (await readNormaState(root))!;
  const id: string = result.run_id;
  const events = state.events(id).map((e) => ({ seq: e.seq, type: e.type }));
  const steps = state.steps(id).map((s) => ({ index: s.step_index, role: s.role, iteration: s.iteration, status: s.status, summary: s.summary }));
  const kv = [...state.kv(id).keys()].sort();
  return {
    status: result.status,
    verdict: result.verdict,
    iteration: result.iteration,
    reason: result.reason,
    steps: result.steps.map((s: { index: number; role: string; status: string; summary: string }) => [s.index, s.role, s.status, s.summary]),
    marked: result.marked,
    snapshot: { files: result.snapshot?.files, specs: result.snapshot?.specs },
    committed: result.commit?.files,
    recovery: result.recovery,
    run: { status: state.runs[0]!.status, verdict: state.runs[0]!.verdict, iteration: state.runs[0]!.iteration },
    db: { events, steps, kv },
    // The files as they are, but for what names the moment or the run (the snapshot's time and HEAD; the transcript record's id, time, duration, run).
    worktree: [...treeSnapshot(worktreeOf(root, id))].filter(([p]) => p !== ".notarai/reconciliation_state.json" && p !== TRANSCRIPT),
    transcript: readFileSync(join(worktreeOf(root, id), TRANSCRIPT), "utf8")
      .trim()
      .split("\n")
      .map((line) => {
        const { op_id: _id, ts: _ts, elapsed_ms: _ms, reason: _reason, entry_sha256: _sha, ...rest } = JSON.parse(line);
        return rest;
      }),
  };
}

it("a run answers and records the same with SQLite on the baseline tier and on V8's tiering", async () => {
  const baseline = await runOnce({});
  const tiered = await runOnce({ NOMA_RECONCILE_WASM_TIERING: "default" });
  expect((baseline as { status: string }).status).toBe("passed");
  expect(baseline).toEqual(tiered);
});
