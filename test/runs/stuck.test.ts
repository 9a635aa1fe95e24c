/**
 * Budgets that catch a stuck agent, and records that tell the truth:
 * - two consecutive act steps proposing the same change stop the run before the second is applied;
 * - drift that does not fall for max_stalled_iterations iterations stops it;
 * both recorded as `agent_stuck` with the evidence, and shown by `runs show`;
 * - a failed patch's words match the states recorded (pure cases the loop cannot easily reach).
 */
import { describe, expect, it } from "vitest";
import { describePatchFailure } from "../../src/runs/apply-pending-patch.js";
import { driftStalled, repeatedChange } from "../../src/runs/stuck-agent.js";
import { readNormaState } from "../../src/runs/norma-db.js";
import { cli, execAgent, runRepoAsync, SPEC } from "./helpers/run-repo.js";

const DRIFT = { "src/app.ts": "export const greet = (n: string) => `hi ${n}`;\n" };

/** A patch creating `path` (not governed: it leaves the drift where it is). */
function newFile(path: string, line: string): string {
  return `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${line}\n`;
}

describe("stuck agents", { timeout: 240_000 }, () => {
  it("the same change twice: the second act step's patch is not applied, the run stops, runs show says why with the evidence", async () => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { act: execAgent("act.json") } },
      behaviors: { "act.json": { files: { "patch.diff": newFile("notes/ideas.md", "an idea") } } },
    });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    const why = "the act agent proposed the same change in steps 4 and 8 (patch.diff identical): it is stuck; nothing of step 8 was applied";
    expect(out).toMatchObject({
      status: "stopped",
      reason: `${why}; change the act agent's instructions or the criteria, then continue with \`noma-reconcile run --resume ${out.run_id}\` (the act step is tried again)`,
    });
    expect(out.steps.map((s: { index: number; status: string; summary: string }) => `${s.index}:${s.status}`)).toEqual([
      "1:skipped",
      "2:skipped",
      "3:ok",
      "4:ok",
      "5:skipped",
      "6:skipped",
      "7:ok",
      "8:fail",
    ]);
    expect(out.steps[7].summary).toBe("stuck: the same change as step 4");
    const state = (await readNormaState(root))!;
    const events = state.events(out.run_id);
    expect(events.filter((e) => e.type === "patch_applied")).toHaveLength(1);
    const stuck = events.find((e) => e.type === "agent_stuck")!;
    expect(stuck.message).toBe(why);
    expect(JSON.parse(stuck.data_json!)).toEqual({
      kind: "repeated_change",
      steps: [4, 8],
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      proposal: ["patch.diff"],
      changed: [],
      step_index: 8,
    });
    const fingerprint = JSON.parse(stuck.data_json!).fingerprint;
    const show = cli(root, ["runs", "show", out.run_id]).stdout;
    expect(show).toContain(
      `\nStuck: ${why}\n  act steps 4 and 8 proposed the same change (sha256 ${fingerprint})\n  proposal files: patch.diff; files changed directly: none\n`,
    );
    expect(JSON.parse(cli(root, ["runs", "show", out.run_id, "--format", "json"]).stdout).result.stuck).toEqual({
      kind: "repeated_change",
      message: why,
      evidence: [`act steps 4 and 8 proposed the same change (sha256 ${fingerprint})`, "proposal files: patch.diff; files changed directly: none"],
    });
  });

  it("drift that does not fall for max_stalled_iterations iterations stops the run, with the counts as evidence", async () => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { act: execAgent("act.json") }, budgets: { max_iterations: 5, max_stalled_iterations: 1 } },
      // A different patch each iteration, none of which touches the drift.
      behaviors: {
        "act.json": {
          byIteration: {
            "1": { files: { "patch.diff": newFile("notes/one.md", "one") } },
            "2": { files: { "patch.diff": newFile("notes/two.md", "two") } },
          },
        },
      },
    });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    const why = "the open drift has not fallen for 1 iteration (iteration 1: 1, iteration 2: 1; max_stalled_iterations 1): the agents are stuck";
    expect(out.status).toBe("stopped");
    expect(out.reason).toBe(
      `${why}; change the agents' instructions or the criteria, then continue with \`noma-reconcile run --resume ${out.run_id} --max-iterations N\``,
    );
    expect(out.steps).toHaveLength(7);
    const state = (await readNormaState(root))!;
    const events = state.events(out.run_id);
    expect(events.filter((e) => e.type === "verdict").map((e) => JSON.parse(e.data_json!).open_drift)).toEqual([1, 1]);
    const stuck = events.find((e) => e.type === "agent_stuck")!;
    expect(stuck.message).toBe(why);
    expect(JSON.parse(stuck.data_json!)).toEqual({
      kind: "drift_stalled",
      limit: 1,
      counts: [
        { iteration: 1, step: 3, open: 1 },
        { iteration: 2, step: 7, open: 1 },
      ],
      step_index: 7,
    });
    expect(state.kv(out.run_id).get("drift_counts")).toEqual([
      { iteration: 1, step: 3, open: 1 },
      { iteration: 2, step: 7, open: 1 },
    ]);
    expect(cli(root, ["runs", "show", out.run_id]).stdout).toContain(
      `\nStuck: ${why}\n  open drift after each failed check: iteration 1 (step 3): 1, iteration 2 (step 7): 1\n  max_stalled_iterations: 1\n`,
    );
  });

  it("a patch that lowers the drift is progress: no stop (the loop goes on to PASS)", async () => {
    const root = await runRepoAsync({
      drift: { ...DRIFT, "docs/extra.md": "more\n" },
      config: { agents: { act: execAgent("act.json") }, budgets: { max_stalled_iterations: 1 } },
      behaviors: {
        "act.json": {
          byIteration: {
            "1": { files: { "reconciled.json": [{ spec: SPEC, path: "src/app.ts" }] } },
            "2": { files: { "reconciled.json": [{ spec: SPEC, path: "docs/extra.md" }] } },
          },
        },
      },
    });
    const out = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(out.status).toBe("passed");
    expect(out.iteration).toBe(3);
  });

  it("the stuck measures, pure: nothing twice is the same change; a fall, or no drift to begin with, is no stall", async () => {
    const a = { step: 4, fingerprint: "f", proposal: [], changed: [] };
    expect(repeatedChange(a, { ...a, step: 8 })?.message).toBe(
      "the act agent proposed the same change in steps 4 and 8 (nothing (no patch, no acknowledgement, no file changed), both times): it is stuck; nothing of step 8 was applied",
    );
    expect(repeatedChange(a, { ...a, step: 8, fingerprint: "g" })).toBeNull();
    expect(repeatedChange(undefined, a)).toBeNull();
    const c = (iteration: number, open: number) => ({ iteration, step: iteration * 4 - 1, open });
    expect(driftStalled([c(1, 3), c(2, 2), c(3, 1), c(4, 1)], 3)).toBeNull();
    expect(driftStalled([c(1, 3), c(2, 3), c(3, 3), c(4, 3)], 3)?.message).toBe(
      "the open drift has not fallen for 3 iterations (iteration 1: 3, iteration 2: 3, iteration 3: 3, iteration 4: 3; max_stalled_iterations 3): the agents are stuck",
    );
    expect(driftStalled([c(1, 0), c(2, 0)], 1)).toBeNull();
    expect(driftStalled([c(1, 2), c(2, 4)], 1)?.data).toEqual({ kind: "drift_stalled", limit: 1, counts: [c(1, 2), c(2, 4)] });
  });
});

describe("a failed patch's words match what happened", { timeout: 240_000 }, () => {
  const head = "a".repeat(40);
  const base = { ok: false as const, stage: "apply" as const, problem: "git apply failed" };

  it("nothing written and nothing changed; nothing written but the worktree changed meanwhile; restored; restored but different (the backup kept)", async () => {
    const same = { head, status: " M notes.txt\n" };
    expect(describePatchFailure({ ...base, stage: "check", touched: false, restored: null, before: same, after: same }, ".norma/worktrees/x", "b")).toEqual({
      tree: "nothing was applied: the worktree .norma/worktrees/x is as it was (git status before and after identical)",
      unchanged: true,
      keptBackup: false,
    });
    expect(
      describePatchFailure(
        { ...base, stage: "check", touched: false, restored: null, before: same, after: { head, status: " M notes.txt\n?? new.txt\n" } },
        ".norma/worktrees/x",
        "b",
      ).tree,
    ).toBe("nothing was applied, but the worktree .norma/worktrees/x changed meanwhile (git status: +?? new.txt) — check it");
    expect(describePatchFailure({ ...base, touched: true, restored: true, before: same, after: same }, ".norma/worktrees/x", "b").tree).toBe(
      "the worktree .norma/worktrees/x was restored from the backup (git status as before)",
    );
    expect(
      describePatchFailure(
        { ...base, touched: true, restored: false, before: same, after: { head: "b".repeat(40), status: "" } },
        ".norma/worktrees/x",
        ".norma/runs/r/patches/004.backup",
      ),
    ).toEqual({
      tree: `the worktree .norma/worktrees/x was restored from the backup, but git status differs (- M notes.txt, HEAD ${head} → ${"b".repeat(40)}) — check it; the backup is kept in .norma/runs/r/patches/004.backup`,
      unchanged: false,
      keptBackup: true,
    });
  });

  it("a patch that does not even vet (git cannot read it) fails the act step with patch_invalid and applies nothing", async () => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { act: execAgent("act.json") } },
      behaviors: { "act.json": { files: { "patch.diff": "this is not a diff at all\n+++ nonsense\n" } } },
    });
    const out = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(out.status).toBe("failed");
    expect(out.reason).toMatch(/^the act step's patch was rejected: patch\.diff is not a patch git can read: /);
    const state = (await readNormaState(root))!;
    const types = state.events(out.run_id).map((e) => e.type);
    expect(types).toContain("patch_invalid");
    expect(types).not.toContain("patch_started");
    expect(types).not.toContain("patch_failed");
  });
});
