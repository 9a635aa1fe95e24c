/**
 * The run loop end to end: the real CLI (`dist/cli.js run`), real git
 * repositories, the real sql.js database, scripted exec agents.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blake3Hex } from "../../src/internal.js";
import { getChangedArtifacts } from "../../src/reconcile/get-changed-artifacts.js";
import { readNormaState } from "../../src/runs/norma-db.js";
import { verifyTranscript } from "../../src/transcript/verify-transcript.js";
import { CLI } from "../helpers/run-cli.js";
import { git, tempDir } from "../helpers/temp-repo.js";
import {
  checkoutFingerprint,
  cli,
  execAgent,
  GUIDE,
  lineDiff,
  readJson,
  runForSetUp,
  runIds,
  runRepoAsync,
  shAgent,
  SPEC,
  stepDirs,
  treeSnapshot,
  worktreeOf,
} from "./helpers/run-repo.js";

const DRIFT = { "src/app.ts": "export const greet = (n: string) => `hi ${n}`;\n" };

function onlyRun(root: string): string {
  const ids = runIds(root);
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

describe("run: passes, fails, acts", () => {
  it("passes first time with the built-in check when nothing drifted (no config needed)", async () => {
    const root = await runRepoAsync();
    const text = cli(await runRepoAsync(), ["run", "--spec", SPEC]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /\nThe run changed nothing: nothing to commit \(worktree \.norma\/worktrees\/[\da-f-]+\/, branch noma-reconcile\/run\/[\da-f-]+ at [0-9a-f]{12}\)\.\n$/,
    );
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.schema).toBe("noma-reconcile/run@3");
    expect(out.result.status).toBe("passed");
    expect(out.result.verdict).toBe("PASS");
    expect(out.result.steps.map((s: { role: string; status: string }) => `${s.role}:${s.status}`)).toEqual(["plan:skipped", "do:skipped", "check:ok"]);
    const id = onlyRun(root);
    expect(stepDirs(root, id)).toEqual(["001-plan", "002-do", "003-check"]);
    const check = `.norma/runs/${id}/steps/003-check`;
    for (const f of [
      "input.json",
      "output.json",
      "logs/stdout.txt",
      "logs/stderr.txt",
      "verdict.json",
      "scorecard.md",
      "files/drift-1.json",
      "files/documents.json",
    ])
      expect(existsSync(join(root, check, f)), f).toBe(true);
    expect(readJson(root, `${check}/verdict.json`)).toMatchObject({
      version: 1,
      verdict: "PASS",
      criteria: [
        { id: "AC1", text: `no unreconciled drift for ${SPEC}`, pass: true },
        { id: "AC2", pass: true },
      ],
    });
    const input = readJson(root, `${check}/input.json`);
    expect(input).toMatchObject({
      version: 1,
      run_id: id,
      step: { index: 3, role: "check", iteration: 1 },
      norma: { acceptance_criteria: [{ id: "AC1" }, { id: "AC2" }], budgets: { max_iterations: 5 } },
    });
    expect(input.paths.step_dir).toMatch(/003-check\.tmp-[0-9a-f]{8}$/);
    expect(readFileSync(join(root, `.norma/runs/${id}/norma.md`), "utf8")).toContain(`- **AC1**: no unreconciled drift for ${SPEC}`);
    expect(readFileSync(join(root, ".norma/.gitignore"), "utf8")).toContain("!config.json");
    const state = (await readNormaState(root))!;
    expect(state.runs).toEqual([
      expect.objectContaining({ run_id: id, status: "passed", verdict: "PASS", iteration: 1, current_step_index: 3, run_dir: `.norma/runs/${id}` }),
    ]);
    expect(state.steps(id).map((s) => [s.step_index, s.role, s.status])).toEqual([
      [1, "plan", "skipped"],
      [2, "do", "skipped"],
      [3, "check", "ok"],
    ]);
    // Nothing was newly reconciled, so the committed snapshot is left alone (no churn of its HEAD and time).
    expect(state.events(id).map((e) => e.type)).toEqual([
      "run_started",
      "worktree_created",
      "step_committed",
      "step_committed",
      "verdict",
      "step_committed",
      "snapshot_unchanged",
      "nothing_to_commit",
      "run_passed",
    ]);
    expect(out.result.worktree).toEqual({ dir: `.norma/worktrees/${id}`, branch: `noma-reconcile/run/${id}`, base: git(root, ["rev-parse", "HEAD"]).trim() });
    expect(out.result.commit).toEqual({ branch: `noma-reconcile/run/${id}`, commit: null, files: [] });
  });

  it("fails, acts with a patch, passes on iteration 2; PASS marks the acknowledged files and writes the snapshot", async () => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { act: shAgent("act.sh") } },
      shBehaviors: {
        "act.sh": {
          files: {
            "patch.diff": lineDiff(
              "src/app.ts",
              "export const greet = (n: string) => `hi ${n}`;",
              "export const greet = (n: string) => `hello ${n}`; // reconciled",
            ),
            "reconciled.json": [{ spec: SPEC, path: "src/app.ts", note: "greets with hello again" }],
          },
        },
      },
    });
    const before = checkoutFingerprint(root);
    const r = cli(root, ["run", "--spec", SPEC]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^Run \d{8}-\d{6}-[0-9a-f]{6}: PASSED \(verdict PASS\) after 7 steps, iteration 2\./);
    expect(r.stdout).toContain("003 check iteration 1  ok      FAIL: AC1: 1 open drift file (src/app.ts)");
    expect(r.stdout).toContain(`Marked reconciled for ${SPEC}: src/app.ts`);
    const id = onlyRun(root);
    const wt = worktreeOf(root, id);
    const commit = git(root, ["rev-parse", `noma-reconcile/run/${id}`]).trim();
    // It ends by saying where the result is and how to bring it in.
    expect(
      r.stdout.endsWith(
        `\nCommitted on noma-reconcile/run/${id} as ${commit.slice(0, 12)}: 2 files (.notarai/reconciliation_state.json, src/app.ts); worktree .norma/worktrees/${id}/.\nBring it into your branch: noma-reconcile runs apply ${id}\n`,
      ),
    ).toBe(true);
    // The patch went into the run's worktree; the user's checkout is as it was.
    expect(readFileSync(join(wt, "src/app.ts"), "utf8")).toContain("// reconciled");
    expect(readFileSync(join(root, "src/app.ts"), "utf8")).not.toContain("// reconciled");
    expect(checkoutFingerprint(root)).toEqual(before);
    expect(stepDirs(root, id)).toEqual(["001-plan", "002-do", "003-check", "004-act", "005-plan", "006-do", "007-check"]);
    const state = (await readNormaState(root))!;
    const types = state.events(id).map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(["patch_started", "patch_applied", "drift_acknowledged", "marked_reconciled", "snapshot_written", "run_passed"]),
    );
    const applied = state.events(id).find((e) => e.type === "patch_applied")!;
    const data = JSON.parse(applied.data_json!);
    expect(data.head_before).toBe(data.head_after);
    expect(data.status_before).toBe("");
    expect(data.status_after).toBe(" M src/app.ts\n");
    // In the worktree, the cache and the snapshot now vouch for the patched file (with the hash of the file as the run
    // left it): `changed` lists nothing; the commit holds both.
    expect((await getChangedArtifacts(wt, { specPath: SPEC })).changed_artifacts).toEqual([]);
    const patched = await blake3Hex(readFileSync(join(wt, "src/app.ts")));
    expect(readJson(wt, ".notarai/reconciliation_state.json").file_fingerprints["src/app.ts"]).toEqual({ blake3: patched });
    expect(git(root, ["show", "--name-status", "--format=", commit]).trim().split("\n")).toEqual(["M\t.notarai/reconciliation_state.json", "M\tsrc/app.ts"]);
    expect(git(wt, ["status", "--porcelain"])).toBe("");
    expect(state.kv(id).get("acks")).toEqual([
      expect.objectContaining({ spec: SPEC, path: "src/app.ts", step: 4, hash: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
  });

  it("--no-mark passes without touching the cache or the snapshot", async () => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { act: shAgent("act.sh") } },
      shBehaviors: { "act.sh": { files: { "reconciled.json": [{ spec: SPEC, path: "src/app.ts" }] } } },
    });
    const before = readFileSync(join(root, ".notarai/reconciliation_state.json"), "utf8");
    const r = cli(root, ["run", "--spec", SPEC, "--no-mark"]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(
      "Not marked reconciled (--no-mark): the commit holds the agents' changes only; once they are reviewed, record them with `noma-reconcile mark-reconciled <paths>`",
    );
    const wt = worktreeOf(root, onlyRun(root));
    expect(readFileSync(join(wt, ".notarai/reconciliation_state.json"), "utf8")).toBe(before);
    expect((await getChangedArtifacts(wt, { specPath: SPEC })).changed_artifacts).toEqual(["src/app.ts"]);
  });

  it("an acknowledgement holds only for the content it saw: an edit after it re-opens the drift", async () => {
    const createTestsOk = ["--- /dev/null", "+++ b/tests-ok", "@@ -0,0 +1 @@", "+ok", ""].join("\n");
    const root = await runRepoAsync({
      drift: DRIFT,
      // The test command passes once tests-ok exists: iteration 1 fails on it even though do acknowledged the drift.
      extra: { ".notarai/config.yaml": "workspace:\n  test: [node, -e, \"process.exit(require('fs').existsSync('tests-ok') ? 0 : 1)\"]\n" },
      config: { agents: { act: shAgent("act.sh"), do: shAgent("do.sh") }, budgets: { max_iterations: 2 } },
      shBehaviors: {
        // do (iteration 1) acknowledges the drift; act (iteration 1) fixes the tests but also edits the acknowledged file, without acknowledging it again.
        "do.sh": { byIteration: { "1": { files: { "reconciled.json": [{ spec: SPEC, path: "src/app.ts" }] } }, "2": {} } },
        "act.sh": {
          files: {
            "patch.diff":
              lineDiff("src/app.ts", "export const greet = (n: string) => `hi ${n}`;", "export const greet = (n: string) => `hey ${n}`;") + createTestsOk,
          },
        },
      },
    });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    expect(out.status).toBe("stopped");
    expect(out.reason).toContain("max_iterations exceeded");
    const id = onlyRun(root);
    expect(readJson(root, `.norma/runs/${id}/steps/003-check/verdict.json`).criteria.map((c: { pass: boolean }) => c.pass)).toEqual([true, true, false]);
    expect(readJson(root, `.norma/runs/${id}/steps/007-check/verdict.json`).criteria.map((c: { pass: boolean }) => c.pass)).toEqual([false, true, true]);
    const drift = readJson(root, `.norma/runs/${id}/steps/007-check/files/drift-1.json`);
    expect(drift.pending).toEqual([
      expect.objectContaining({ path: "src/app.ts", acknowledged: false, problem: "changed again after this run acknowledged it" }),
    ]);
  });
});

describe("run: budgets", () => {
  it("max_iterations stops the run (status stopped, budget_exceeded event); --resume with a larger budget continues it", async () => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { act: execAgent("act.json") }, budgets: { max_iterations: 2 } },
      behaviors: { "act.json": {} },
    });
    const r = cli(root, ["run", "--spec", SPEC]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Stopped: max_iterations exceeded: iteration 2 of 2 ended with FAIL");
    const id = onlyRun(root);
    expect(
      r.stdout.endsWith(
        `\nKept for inspection: worktree .norma/worktrees/${id}/, branch noma-reconcile/run/${id}.\nContinue: noma-reconcile run --resume ${id}\n`,
      ),
    ).toBe(true);
    let state = (await readNormaState(root))!;
    expect(state.runs[0]).toMatchObject({ status: "stopped", verdict: "FAIL" });
    expect(state.events(id).find((e) => e.type === "budget_exceeded")?.data_json).toBe(JSON.stringify({ budget: "max_iterations", limit: 2, value: 2 }));
    // Iteration 2's check failed with the budget spent: no act step proposes a patch no check could judge.
    expect(stepDirs(root, id)).toHaveLength(7);
    // Now the agent acknowledges (its behaviour file is read in the run's worktree); resume with one more iteration.
    writeFileSync(join(worktreeOf(root, id), "agents/act.json"), JSON.stringify({ files: { "reconciled.json": [{ spec: SPEC, path: "src/app.ts" }] } }));
    const again = cli(root, ["run", "--resume", id, "--max-iterations", "3"]);
    expect(again.code, again.stdout).toBe(0);
    state = (await readNormaState(root))!;
    expect(state.runs[0]).toMatchObject({ run_id: id, status: "passed", verdict: "PASS" });
    expect(stepDirs(root, id)).toEqual([
      "001-plan",
      "002-do",
      "003-check",
      "004-act",
      "005-plan",
      "006-do",
      "007-check",
      "008-act",
      "009-plan",
      "010-do",
      "011-check",
    ]);
    expect(state.events(id).map((e) => e.type)).toContain("run_resumed");
  });

  const bigPatch = (n: number) =>
    `${Array.from({ length: n }, (_, i) => [`--- /dev/null`, `+++ b/src/new${i}.ts`, `@@ -0,0 +1 @@`, `+export const n${i} = ${i};`].join("\n")).join("\n")}\n`;

  it.each([
    ["max_patch_kb", { max_patch_kb: 0.1 }, bigPatch(3), 0.1],
    ["max_changed_files", { max_changed_files: 2 }, bigPatch(3), 2],
    ["max_risky_files", { max_risky_files: 0 }, bigPatch(1), 0],
  ] as const)("%s stops the run before anything is applied", async (budget, budgets, patch, limit) => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { act: shAgent("act.sh") }, budgets: { max_iterations: 5, ...budgets }, risky: ["src/new*.ts"] },
      shBehaviors: { "act.sh": { files: { "patch.diff": patch } } },
    });
    const tree = treeSnapshot(root);
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    expect(out.status).toBe("stopped");
    expect(out.reason).toContain(`${budget} exceeded`);
    expect(treeSnapshot(root)).toEqual(tree);
    const state = (await readNormaState(root))!;
    const ev = state.events(out.run_id).find((e) => e.type === "budget_exceeded")!;
    expect(JSON.parse(ev.data_json!)).toMatchObject({ budget, limit });
    expect(state.kv(out.run_id).get("pending_patch")).toMatchObject({ step: 4, reason: budget });
  });
});

describe("run: agents that break the contract", () => {
  it("a bad AgentResponse fails the step with protocol_error; the raw stdout stays in the logs", async () => {
    const root = await runRepoAsync({
      config: { agents: { plan: shAgent("plan.sh") } },
      shBehaviors: { "plan.sh": { stdout: "I made a plan!\n", stderr: "thinking…\n" } },
    });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    expect(out.status).toBe("failed");
    expect(out.steps).toEqual([expect.objectContaining({ index: 1, role: "plan", status: "fail" })]);
    const step = `.norma/runs/${out.run_id}/steps/001-plan`;
    expect(readFileSync(join(root, step, "logs/stdout.txt"), "utf8")).toBe("I made a plan!\n");
    expect(readFileSync(join(root, step, "logs/stderr.txt"), "utf8")).toBe("thinking…\n");
    const output = readJson(root, `${step}/output.json`);
    expect(output).toMatchObject({ version: 1, status: "fail" });
    expect(output.errors[0]).toMatch(/^protocol_error: stdout \(AgentResponse\) is not valid JSON .* it starts with "I made a plan!"/);
    const state = (await readNormaState(root))!;
    expect(state.events(out.run_id).map((e) => e.type)).toEqual(["run_started", "worktree_created", "protocol_error", "step_committed", "run_failed"]);
  });

  it("an AgentResponse of the wrong shape names the key, what was expected and what was found", async () => {
    const root = await runRepoAsync({
      config: { agents: { plan: shAgent("plan.sh") } },
      shBehaviors: { "plan.sh": { stdout: JSON.stringify({ version: 1, status: "done", summary: 3, files: [] }) } },
    });
    const out = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(out.steps[0].summary).toBe(
      'protocol_error: stdout (AgentResponse): status: expected one of "ok", "fail", found "done"; stdout (AgentResponse): summary: expected a string, found 3',
    );
  });

  it.each([
    ["..", ["../escape.txt"], /contains "\.\."/],
    ["an absolute path", ["/etc/passwd"], /is absolute/],
  ])("files[] with %s is a protocol error", async (_what, listed, message) => {
    const root = await runRepoAsync({ config: { agents: { plan: shAgent("plan.sh") } }, shBehaviors: { "plan.sh": { listed } } });
    const out = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(out.status).toBe("failed");
    expect(out.steps[0].summary).toMatch(message);
  });

  it("a symbolic link leading out of the step directory is removed and fails the step", async () => {
    const root = await runRepoAsync({
      config: { agents: { plan: execAgent("plan.json") } },
      behaviors: { "plan.json": { symlinks: { "plan.md": "/etc/hostname" }, listed: ["plan.md"] } },
    });
    const out = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(out.status).toBe("failed");
    expect(out.steps[0].summary).toContain("symbolic links leading outside the step directory (removed): plan.md");
    expect(existsSync(join(root, `.norma/runs/${out.run_id}/steps/001-plan/plan.md`))).toBe(false);
  });

  it("a check agent without verdict.json stops the run as failed (protocol_error)", async () => {
    const root = await runRepoAsync({
      config: { agents: { check: shAgent("check.sh") } },
      shBehaviors: { "check.sh": { files: { "scorecard.md": "# all good\n" } } },
    });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    expect(out.status).toBe("failed");
    expect(out.reason).toBe("step 3 (check) failed: protocol_error: the check agent wrote no verdict.json");
    const state = (await readNormaState(root))!;
    expect(state.events(out.run_id).some((e) => e.type === "protocol_error")).toBe(true);
  });

  it("an invalid verdict.json is a protocol error too", async () => {
    const root = await runRepoAsync({
      config: { agents: { check: shAgent("check.sh") } },
      shBehaviors: { "check.sh": { files: { "scorecard.md": "x\n", "verdict.json": { version: 1, verdict: "MAYBE", criteria: [] } } } },
    });
    const out = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(out.reason).toBe('step 3 (check) failed: protocol_error: verdict.json: verdict: expected one of "PASS", "FAIL", found "MAYBE"');
  });

  it("plan, do and check must not produce patch.diff: it is ignored, with an event", async () => {
    const root = await runRepoAsync({
      config: { agents: { plan: shAgent("plan.sh") } },
      shBehaviors: { "plan.sh": { files: { "plan.md": "# plan\n", "patch.diff": lineDiff("src/app.ts", "x", "y") } } },
    });
    const tree = treeSnapshot(root);
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(0);
    expect(treeSnapshot(root)).toEqual(tree);
    const state = (await readNormaState(root))!;
    expect(state.events(JSON.parse(r.stdout).result.run_id).find((e) => e.type === "patch_ignored")?.message).toBe(
      "plan steps must not produce patch.diff; it is ignored (kept for the record, never applied)",
    );
  });

  it("a non-zero exit fails the step and the run; a timeout too", async () => {
    const root = await runRepoAsync({ config: { agents: { do: execAgent("do.json") } }, behaviors: { "do.json": { exit: 3 } } });
    let out = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(out.reason).toBe("step 2 (do) failed: do agent exited with code 3 (see logs/stderr.txt)");
    writeFileSync(join(root, ".norma/config.json"), JSON.stringify({ agents: { do: execAgent("do.json", { timeout_ms: 300 }) } }));
    // A new run starts from HEAD: the new behaviour is committed.
    writeFileSync(join(root, "agents/do.json"), JSON.stringify({ sleepMs: 20_000 }));
    git(root, ["commit", "-qam", "slow do agent"]);
    out = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(out.reason).toBe("step 2 (do) failed: do agent timed out after 300 ms");
  });
});

describe("run: patches", { timeout: 240_000 }, () => {
  /** Untracked, ignored and modified files in the run's worktree, made by the do agent: all must survive a failed patch byte for byte. */
  const DIRTY = { "scratch.txt": "untracked work\n", "ignored.log": "ignored\n", "notes.txt": "tracked notes, edited\n" };

  function patchRepo(act: object): Promise<string> {
    return runRepoAsync({
      drift: DRIFT,
      extra: { "notes.txt": "tracked notes\n" },
      // The act agent as sh; the do agent edits the workspace (the node agent's `workspace`).
      config: { agents: { act: shAgent("act.sh"), do: execAgent("do.json") } },
      shBehaviors: { "act.sh": act },
      behaviors: { "do.json": { workspace: DIRTY } },
    });
  }

  /** The worktree as the do agent left it: HEAD's files, the dirty ones over them. */
  function expectDirtyWorktree(wt: string): void {
    for (const [p, c] of Object.entries(DIRTY)) expect(readFileSync(join(wt, p), "utf8"), p).toBe(c);
    expect(readFileSync(join(wt, "src/app.ts"), "utf8")).toBe(DRIFT["src/app.ts"]);
    expect(readFileSync(join(wt, "docs/guide.noma"), "utf8")).toBe(GUIDE);
    expect(git(wt, ["status", "--porcelain=v1", "--untracked-files=all"])).toBe(" M notes.txt\n?? scratch.txt\n");
  }

  it("a patch that does not apply changes nothing: the worktree is as before, the events say so, the step and run fail", async () => {
    const root = await patchRepo({ files: { "patch.diff": lineDiff("src/app.ts", "no such line", "anything") } });
    const before = checkoutFingerprint(root);
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    const wtDir = `.norma/worktrees/${out.run_id}`;
    expect(out.reason).toMatch(/^the act step's patch failed \(check\): patch\.diff does not apply: error: patch failed: src\/app\.ts:1/);
    expect(
      out.reason.endsWith(
        `; nothing was applied: the worktree ${wtDir} is as it was (git status before and after identical); \`noma-reconcile run --resume ${out.run_id}\` tries the act step again`,
      ),
    ).toBe(true);
    expectDirtyWorktree(worktreeOf(root, out.run_id));
    expect(checkoutFingerprint(root)).toEqual(before);
    const state = (await readNormaState(root))!;
    expect(state.steps(out.run_id).find((s) => s.role === "act")?.status).toBe("fail");
    const failed = state.events(out.run_id).find((e) => e.type === "patch_failed")!;
    expect(failed.message).toMatch(
      new RegExp(`; nothing was applied: the worktree ${wtDir.replace(/\./g, "\\.")} is as it was \\(git status before and after identical\\)$`),
    );
    const data = JSON.parse(failed.data_json!);
    // What the record says is what happened: nothing touched, nothing to restore, the same status before and after.
    expect(data).toMatchObject({ stage: "check", touched: false, restored: null, status_unchanged: true });
    expect(data.status_before).toBe(" M notes.txt\n?? scratch.txt\n");
    expect(data.status_after).toBe(data.status_before);
    expect(data.head_after).toBe(data.head_before);
    expect(state.events(out.run_id).some((e) => e.type === "patch_started")).toBe(false);
  });

  it("a patch that applies but leaves an invalid .noma document is rolled back byte for byte (untracked and ignored files kept)", async () => {
    const broken = [
      "--- a/docs/guide.noma",
      "+++ b/docs/guide.noma",
      "@@ -6,3 +6,3 @@",
      ' ::decision{id="greeting" status="accepted"}',
      " The app says hello.",
      "-::",
      "+",
      "--- a/notes.txt",
      "+++ b/notes.txt",
      "@@ -1 +1 @@",
      "-tracked notes, edited",
      "+patched notes",
      "--- /dev/null",
      "+++ b/src/deep/new/file.ts",
      "@@ -0,0 +1 @@",
      "+export const created = true;",
      "",
    ].join("\n");
    const root = await patchRepo({ files: { "patch.diff": broken } });
    const before = checkoutFingerprint(root);
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    const wt = worktreeOf(root, out.run_id);
    expect(out.reason).toMatch(/^the act step's patch failed \(validate\): patch\.diff leaves invalid \.noma documents: docs\/guide\.noma/);
    expectDirtyWorktree(wt);
    expect(existsSync(join(wt, "src/deep"))).toBe(false);
    expect(checkoutFingerprint(root)).toEqual(before);
    const state = (await readNormaState(root))!;
    const event = state.events(out.run_id).find((e) => e.type === "patch_failed")!;
    expect(event.message).toMatch(new RegExp(`; the worktree \\.norma/worktrees/${out.run_id} was restored from the backup \\(git status as before\\)$`));
    const failed = JSON.parse(event.data_json!);
    expect(failed).toMatchObject({ stage: "validate", touched: true, restored: true, status_unchanged: true });
    expect(failed.status_after).toBe(failed.status_before);
    // The backup of the before-state is gone once the tree is restored.
    const patches = join(root, `.norma/runs/${out.run_id}/patches`);
    expect(existsSync(patches) ? readdirSync(patches) : []).toEqual([]);
  });

  it("patch.noma.json goes through the patch engine (transcript records); a rejected op rolls everything back", async () => {
    const good = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { act: execAgent("act.json") } },
      behaviors: {
        "act.json": {
          files: {
            "patch.noma.json": [{ file: "docs/guide.noma", ops: [{ op: "replace_body", id: "greeting", content: "The app says hi.\n" }] }],
            "reconciled.json": [
              { spec: SPEC, path: "src/app.ts" },
              { spec: SPEC, path: "docs/guide.noma" },
            ],
          },
        },
      },
    });
    const r = cli(good, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code, r.stdout).toBe(0);
    const out = JSON.parse(r.stdout).result;
    const wt = worktreeOf(good, out.run_id);
    expect(readFileSync(join(wt, "docs/guide.noma"), "utf8")).toContain("The app says hi.");
    expect(readFileSync(join(good, "docs/guide.noma"), "utf8")).toBe(GUIDE);
    const records = readFileSync(join(wt, "docs/guide.noma.patches"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ patch_result: "applied", actor: { kind: "agent", name: "act agent: exec node agents/scripted.mjs agents/act.json" } });
    // What `transcript verify docs/guide.noma` computes, in process (the command is tested as a process in test/transcript).
    const verified = verifyTranscript(readFileSync(join(wt, "docs/guide.noma.patches"), "utf8"), readFileSync(join(wt, "docs/guide.noma"), "utf8"));
    expect(verified.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(out.marked).toEqual([{ spec: SPEC, files: ["docs/guide.noma", "src/app.ts"] }]);
    // The document, its transcript and the snapshot are one commit on the run's branch.
    expect(out.commit.files).toEqual([
      { status: "M", path: ".notarai/reconciliation_state.json" },
      { status: "M", path: "docs/guide.noma" },
      { status: "A", path: "docs/guide.noma.patches" },
    ]);

    const bad = await patchRepo({
      files: {
        "patch.diff": lineDiff("src/app.ts", "export const greet = (n: string) => `hi ${n}`;", "export const greet = (n: string) => `yo ${n}`;"),
        "patch.noma.json": [{ file: "docs/guide.noma", ops: [{ op: "replace_body", id: "no-such-block", content: "x\n" }] }],
      },
    });
    const before = checkoutFingerprint(bad);
    const badOut = JSON.parse(cli(bad, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(badOut.reason).toMatch(/^the act step's patch failed \(noma\): docs\/guide\.noma: the patch engine rejected the ops \(target_missing/);
    expectDirtyWorktree(worktreeOf(bad, badOut.run_id));
    expect(existsSync(join(worktreeOf(bad, badOut.run_id), "docs/guide.noma.patches"))).toBe(false);
    expect(checkoutFingerprint(bad)).toEqual(before);
  });

  it("a patch reaching outside the worktree or into .norma/ is rejected before anything is applied", async () => {
    for (const target of ["../outside.txt", ".norma/config.json"]) {
      const root = await patchRepo({ files: { "patch.noma.json": [{ file: target, ops: [{ op: "replace_body", id: "x", content: "y" }] }] } });
      const before = checkoutFingerprint(root);
      const out = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
      expect(out.status).toBe("failed");
      expect(out.reason).toMatch(target.startsWith("..") ? /the patch reaches outside the repository/ : /a patch may not change \.git\/ or \.norma\//);
      expectDirtyWorktree(worktreeOf(root, out.run_id));
      expect(checkoutFingerprint(root)).toEqual(before);
    }
  });
});

describe("run: start-up", () => {
  it("refuses a second run while one is in progress, naming the holder", async () => {
    // The first run's plan agent holds (and with it the run lock) until the gate opens, after the second run was refused.
    const gate = join(tempDir(), "open");
    const root = await runRepoAsync({ config: { agents: { plan: execAgent("plan.json") } }, behaviors: { "plan.json": { waitFor: gate } } });
    const { spawn } = await import("node:child_process");
    const { CLI } = await import("../helpers/run-cli.js");
    const first = spawn(process.execPath, [CLI, "run", "--spec", SPEC], { cwd: root, env: { ...process.env, CI: "1" }, stdio: "ignore" });
    const done = new Promise<number | null>((resolve) => first.on("close", (c) => resolve(c)));
    const lock = join(root, ".norma/locks/run.lock");
    for (let i = 0; i < 200 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 25));
    const second = cli(root, ["run", "--spec", SPEC]);
    writeFileSync(gate, "");
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `another run is in progress in this repository: \\.norma/locks/run\\.lock is held by pid ${first.pid} on \\S+, started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\. Wait for it to finish`,
      ),
    );
    expect(await done).toBe(0);
    expect(cli(root, ["run", "--spec", SPEC]).code).toBe(0);
  });

  it("Ctrl-C (SIGINT) stops the current agent and ends the run stopped; --resume continues it", async () => {
    const root = await runRepoAsync({
      config: { agents: { do: execAgent("do.json") } },
      behaviors: { "do.json": { byIteration: { "1": { sleepMs: 60_000 } } } },
    });
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [CLI, "run", "--spec", SPEC, "--format", "json"], {
      cwd: root,
      env: { ...process.env, CI: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const done = new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    const pidFile = join(root, ".norma/locks/agent.json");
    for (let i = 0; i < 800 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 25));
    const agentPid = JSON.parse(readFileSync(pidFile, "utf8")).pid as number;
    child.kill("SIGINT");
    expect(await done).toBe(1);
    expect(stderr).toContain("noma-reconcile: interrupted; stopping the current agent (the run can be resumed)");
    const out = JSON.parse(stdout).result;
    expect(out).toMatchObject({ status: "stopped", reason: "interrupted; continue with `noma-reconcile run --resume`" });
    expect(() => process.kill(agentPid, 0)).toThrow();
    const state = (await readNormaState(root))!;
    expect(state.steps(out.run_id).map((s) => `${s.step_index}:${s.role}:${s.status}`)).toEqual(["1:plan:skipped", "2:do:fail"]);
    expect(state.events(out.run_id).map((e) => e.type)).toEqual(expect.arrayContaining(["agent_interrupted", "run_interrupted", "run_stopped"]));
    // The agent behaves this time (its behaviour file, in the run's worktree, changed): the failed do step is retried and the run passes.
    writeFileSync(join(worktreeOf(root, out.run_id), "agents/do.json"), JSON.stringify({}));
    const again = cli(root, ["run", "--resume", out.run_id, "--format", "json"]);
    expect(again.code, again.stdout).toBe(0);
    expect(JSON.parse(again.stdout).result.steps.map((s: { index: number; role: string; status: string }) => `${s.index}:${s.role}:${s.status}`)).toEqual([
      "1:plan:skipped",
      "2:do:fail",
      "3:do:ok",
      "4:check:ok",
    ]);
  });

  it("configuration errors name the file, the key, what was expected and what was found (exit 2, nothing run)", async () => {
    const root = await runRepoAsync({
      config: { agents: { act: { type: "codex", cmd: ["x"] }, plan: { type: "cdx" } }, budgets: { max_iteration: 3, max_patch_kb: -1 } },
    });
    const r = cli(root, ["run", "--spec", SPEC]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        "noma-reconcile: invalid .norma/config.json:",
        '  .norma/config.json: agents.act.cmd: not supported for codex: the tool\'s binary is fixed (use "path" for its working directory, "args" for extra arguments)',
        '  .norma/config.json: agents.plan.type: expected one of "exec", "codex", "opencode", "gemini", "claude", "acp", "builtin", found "cdx"',
        "  .norma/config.json: budgets.max_patch_kb: expected a number > 0, found -1",
        '  .norma/config.json: budgets.max_iteration: unknown key (did you mean "max_iterations"?)',
        "",
      ].join("\n"),
    );
    expect(existsSync(join(root, ".norma/norma.db"))).toBe(false);
    writeFileSync(join(root, ".norma/config.json"), '{"agents": {,}}');
    expect(cli(root, ["run", "--spec", SPEC]).stderr).toBe(
      'noma-reconcile: invalid .norma/config.json:\n  .norma/config.json:1:13: not valid JSON (expected a property name in double quotes, found ",")\n',
    );
  });

  it("a missing agent binary is named before anything runs", async () => {
    const root = await runRepoAsync({ config: { agents: { act: { type: "codex" }, do: { type: "exec", cmd: ["./bin/nothing-here"] } } } });
    const r = cli(root, ["run", "--spec", SPEC], { PATH: "/usr/bin:/bin" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("agents.do: ./bin/nothing-here: not found (relative to the repository root); fix cmd in .norma/config.json");
    expect(r.stderr).toContain("agents.act: the codex binary was not found on PATH; install the Codex CLI or choose another agent type in .norma/config.json");
    expect(runIds(root)).toEqual([]);
  });

  it("usage errors exit 2: no criteria, a bad --ac, --ac with the built-in check, an unknown spec", async () => {
    const root = await runRepoAsync();
    expect(cli(root, ["run"]).stderr).toContain("give --spec PATH");
    expect(cli(root, ["run", "--goal", "x", "--ac", "oops"]).stderr).toContain("--ac takes ID=TEXT");
    const ac = cli(root, ["run", "--goal", "x", "--ac", "AC1=tests pass"]);
    expect(ac.code).toBe(2);
    expect(ac.stderr).toContain("the built-in check cannot judge");
    const spec = cli(root, ["run", "--spec", ".notarai/nope.spec.yaml"]);
    expect(spec.code).toBe(2);
    expect(spec.stderr).toContain("not a spec file of this repository");
    expect(cli(root, ["run", "--resume", "nope"]).code).toBe(2);
    expect(cli(root, ["run", "--resume", "20260101-000000-abcdef"]).stderr).toContain("no run 20260101-000000-abcdef");
  });

  it("a test command from .notarai/config.yaml is a criterion the built-in check runs, as run_tests runs it (its environment policy, a ledger line)", async () => {
    const test = "process.exit(require('fs').existsSync('FAIL_TESTS') || process.env.LEAKED ? 1 : 0)";
    const root = await runRepoAsync({ extra: { ".notarai/config.yaml": `workspace:\n  test: [node, -e, ${JSON.stringify(test)}]\n` } });
    // A variable of the run's own environment does not reach the test command (run_tests passes PATH, HOME, TMPDIR, LANG, LC_ALL, CI).
    const ok = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"], { LEAKED: "1" }).stdout).result;
    expect(ok.status).toBe("passed");
    const id = ok.run_id;
    expect(readJson(root, `.norma/runs/${id}/steps/003-check/verdict.json`).criteria[2]).toEqual({
      id: "AC3",
      text: `the test command passes: node -e ${test}`,
      pass: true,
      evidence: "files/test.log",
    });
    // The evidence ledger records the run with the check step that asked.
    expect(existsSync(join(root, "docs/evidence_ledger.tools.log"))).toBe(false);
    const ledger = readFileSync(join(worktreeOf(root, id), "docs/evidence_ledger.tools.log"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { action: string; details: Record<string, unknown> });
    // Two lines: the command's intent before it ran, its outcome after.
    expect(ledger.filter((e) => e.action === "run_tests").map((e) => [e.details["phase"], e.details["run"]])).toEqual([
      ["intent", { run_id: id, step: 3, role: "check" }],
      ["outcome", { run_id: id, step: 3, role: "check" }],
    ]);
    writeFileSync(join(root, "FAIL_TESTS"), "");
    git(root, ["add", "FAIL_TESTS"]);
    git(root, ["commit", "-qm", "tests fail now"]);
    const bad = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result;
    expect(bad.status).toBe("failed");
    expect(bad.steps[2].summary).toBe(`FAIL: AC3: node -e ${test}: exit 1`);
  });
});

describe("run: --goal and --ac with an exec check agent", () => {
  /** A check agent that records its argv and environment, and judges every criterion of its request as holding. */
  const ENV_CHECK = `import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
const req = JSON.parse(readFileSync(0, "utf8"));
const d = req.paths.step_dir;
mkdirSync(d + "/files", { recursive: true });
writeFileSync(d + "/files/env.json", JSON.stringify({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd() }));
const criteria = req.norma.acceptance_criteria.map((c) => ({ ...c, pass: true, evidence: "files/env.json" }));
writeFileSync(d + "/verdict.json", JSON.stringify({ version: 1, verdict: "PASS", criteria }));
writeFileSync(d + "/scorecard.md", criteria.map((c) => "- " + c.id + " PASS").join("\\n") + "\\n");
process.stdout.write(JSON.stringify({ version: 1, status: "ok", summary: "judged " + criteria.length + " criteria", files: ["files/env.json", "verdict.json", "scorecard.md"] }));
`;

  it("free-text criteria go to the check agent, which judges them; the agent runs from its argv (no shell) with a minimal environment", async () => {
    const root = await runRepoAsync({
      extra: { "agents/env-check.mjs": ENV_CHECK },
      config: {
        agents: { check: { type: "exec", cmd: ["node", "agents/env-check.mjs", "a b; echo pwned > pwned.txt", "$HOME", "`id`"], env: ["ALLOWED_VAR"] } },
      },
    });
    const r = cli(
      root,
      ["run", "--goal", "Make the greeting friendlier", "--ac", "AC1=The greeting says hello", "--ac", "AC2=No test fails", "--format", "json"],
      { SECRET_TOKEN: "s3cret", ALLOWED_VAR: "yes" },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).result;
    expect(out).toMatchObject({ status: "passed", verdict: "PASS", goal: "Make the greeting friendlier", marked: [], snapshot: null });
    const check = `.norma/runs/${out.run_id}/steps/003-check`;
    expect(readJson(root, `${check}/input.json`).norma.acceptance_criteria).toEqual([
      { id: "AC1", text: "The greeting says hello" },
      { id: "AC2", text: "No test fails" },
    ]);
    expect(readJson(root, `${check}/verdict.json`).criteria.map((c: { id: string; pass: boolean }) => [c.id, c.pass])).toEqual([
      ["AC1", true],
      ["AC2", true],
    ]);
    const norma = readFileSync(join(root, `.norma/runs/${out.run_id}/norma.md`), "utf8");
    expect(norma).toContain("Make the greeting friendlier");
    expect(norma).toContain("- **AC2**: No test fails");
    const seen = readJson(root, `${check}/files/env.json`);
    // The argv as configured: shell metacharacters are plain text, nothing expanded or run.
    expect(seen.argv).toEqual(["a b; echo pwned > pwned.txt", "$HOME", "`id`"]);
    expect(existsSync(join(root, "pwned.txt"))).toBe(false);
    // The agent runs in the run's worktree.
    expect(seen.cwd).toBe(worktreeOf(root, out.run_id));
    // Minimal environment: no SECRET_TOKEN; ALLOWED_VAR because the agent's env lists it; the NORMA_* variables.
    expect(seen.env.SECRET_TOKEN).toBeUndefined();
    expect(seen.env.ALLOWED_VAR).toBe("yes");
    expect(seen.env).toMatchObject({ NORMA_RUN_ID: out.run_id, NORMA_ROLE: "check", NORMA_STEP_INDEX: "3", NORMA_ITERATION: "1" });
    const allowed = new Set([
      "PATH",
      "HOME",
      "USER",
      "LOGNAME",
      "SHELL",
      "LANG",
      "LANGUAGE",
      "LC_ALL",
      "LC_CTYPE",
      "TZ",
      "TMPDIR",
      "TEMP",
      "TMP",
      "ALLOWED_VAR",
    ]);
    for (const k of Object.keys(seen.env)) expect(allowed.has(k) || k.startsWith("NORMA_"), k).toBe(true);
    const state = (await readNormaState(root))!;
    expect(state.events(out.run_id).map((e) => e.type)).not.toContain("marked_reconciled");
  });
});

describe("runs list / runs show", () => {
  it("lists runs newest first and shows one with steps, events, verdict and scorecard (text and json)", async () => {
    const root = await runRepoAsync();
    expect(cli(root, ["runs", "list"]).stdout).toBe("No runs yet (`noma-reconcile run --spec .notarai/<x>.spec.yaml` starts one).\n");
    // The two runs to list are set-up (made in process, as `run --spec SPEC` makes them); `runs list` and `runs show` are the subject.
    const a = (await runForSetUp(root)).run_id;
    const b = (await runForSetUp(root)).run_id;
    const list = JSON.parse(cli(root, ["runs", "list", "--format", "json"]).stdout).result;
    expect(list.total).toBe(2);
    // Newest first: b started after a; two runs started in the same millisecond are ordered by id, descending.
    const [first, second] = list.runs as Array<{ run_id: string; created_at: string }>;
    expect(new Set([first!.run_id, second!.run_id])).toEqual(new Set([a, b]));
    expect(first!.created_at === second!.created_at ? [first!.run_id, second!.run_id] : [first!.run_id]).toEqual(
      first!.created_at === second!.created_at ? [a, b].sort().reverse() : [b],
    );
    expect(list.runs[0]).toMatchObject({ status: "passed", verdict: "PASS", iteration: 1, steps: 3 });
    expect(JSON.parse(cli(root, ["runs", "list", "--limit", "1", "--format", "json"]).stdout).result.runs).toHaveLength(1);
    const text = cli(root, ["runs", "list"]).stdout;
    expect(text.split("\n")[0]).toMatch(/^RUN +STATUS +VERDICT +ITER +STEPS +CREATED +GOAL$/);
    const show = JSON.parse(cli(root, ["runs", "show", a, "--format", "json"]).stdout).result;
    expect(show.run.run_id).toBe(a);
    expect(show.steps).toHaveLength(3);
    expect(show.scorecard).toBe(`.norma/runs/${a}/steps/003-check/scorecard.md`);
    expect(show.verdict_file).toBe(`.norma/runs/${a}/steps/003-check/verdict.json`);
    expect(show.events[0]).toMatchObject({ seq: 1, type: "run_started" });
    const showText = cli(root, ["runs", "show", a]).stdout;
    expect(showText).toContain(`Run ${a}: passed (verdict PASS), iteration 1, 3 steps`);
    expect(showText).toContain(`Scorecard: .norma/runs/${a}/steps/003-check/scorecard.md`);
    const missing = cli(root, ["runs", "show", "20260101-000000-abcdef"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no run 20260101-000000-abcdef");
  });
});

describe("progress", () => {
  // A real pseudo-terminal (util-linux `script`): stdout goes to a file, stderr stays on the terminal.
  const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

  function onTty(root: string, env: NodeJS.ProcessEnv): { stderr: string; stdout: string } {
    // stdout to a file outside the repository: one inside would be an uncommitted change the run warns about.
    const out = join(tempDir("nr-tty-"), "out.txt");
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} run --spec ${SPEC} > ${JSON.stringify(out)}`;
    const r = spawnSync("script", ["-qec", cmd, "/dev/null"], { cwd: root, env, encoding: "utf8" });
    return { stderr: r.stdout.replace(/\r/g, ""), stdout: readFileSync(out, "utf8") };
  }

  it.skipIf(!hasScript)("shows iteration, role and elapsed time on stderr when it is a terminal and CI is unset; nothing otherwise", async () => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { act: shAgent("act.sh") } },
      shBehaviors: { "act.sh": { files: { "reconciled.json": [{ spec: SPEC, path: "src/app.ts" }] } } },
    });
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
    delete env["CI"];
    const tty = onTty(root, env);
    expect(tty.stdout).toMatch(/^Run .*: PASSED/);
    const lines = tty.stderr.split("\n").filter((l) => l.length > 0);
    expect(lines).toHaveLength(14); // a start and an end line for each of the 7 steps
    expect(lines[0]).toMatch(/^\[ *\d+\.\ds\] iteration 1 · 001 plan {2}…$/);
    expect(lines[1]).toMatch(/^\[ *\d+\.\ds\] iteration 1 · 001 plan {2}skipped: no plan agent is configured \(\.norma\/config\.json agents\.plan\)$/);
    expect(lines[5]).toMatch(/^\[ *\d+\.\ds\] iteration 1 · 003 check ok: FAIL: AC1: 1 open drift file \(src\/app\.ts\)$/);
    expect(lines[13]).toMatch(/^\[ *\d+\.\ds\] iteration 2 · 007 check ok: PASS: all 2 criteria hold$/);
    // In CI, or when stderr is not a terminal: no progress.
    expect(onTty(root, { ...env, CI: "true" }).stderr).toBe("");
    const piped = spawnSync(process.execPath, [CLI, "run", "--spec", SPEC], { cwd: root, env, encoding: "utf8" });
    expect(piped.status).toBe(0);
    expect(piped.stderr).toBe("");
  });
});

describe("git state is untouched by a run that changes nothing", () => {
  it("leaves HEAD, the index and tracked files alone", async () => {
    const root = await runRepoAsync();
    const head = git(root, ["rev-parse", "HEAD"]);
    cli(root, ["run", "--spec", SPEC]);
    expect(git(root, ["rev-parse", "HEAD"])).toBe(head);
    expect(git(root, ["status", "--porcelain", "--untracked-files=all"])).toBe("?? .norma/.gitignore\n");
  });
});
