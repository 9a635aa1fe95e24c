/**
 * `noma-reconcile demo` (the README's first command):
 * - builds the example repository, runs the PR check, prints the report with the one
 *   deliberate drift (refund.ts, through src/billing/**), and exits 0;
 * - removes its temp repository; --keep keeps it, and the PR check run there agrees;
 * - the demo's own files are valid: its specs validate, its document has no diagnostics;
 * - in a kept repository, `npx noma-reconcile run --spec …` — exactly as the README shows it —
 *   (built-in check, scripted act agent) fixes the drift; no commit holds the repository's path.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { committedFilesHolding } from "../helpers/committed-paths.js";
import { git, tempDir } from "../helpers/temp-repo.js";

/** `npx …` as a newcomer types it: none of the npm_* variables an enclosing `npm test` sets (they would point npx at this repository). */
function npx(args: string[], cwd: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "INIT_CWD"));
  const r = spawnSync("npx", args, { cwd, env: { ...env, CI: "1" }, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("demo", () => {
  it("prints the PR check's report with one deliberate drift, exits 0, and cleans up", () => {
    const tmp = tempDir();
    const r = runCli(["demo"], { cwd: tempDir(), env: { TMPDIR: tmp } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("base main (option)");
    expect(r.stdout).toContain("✓ No issues found.");
    expect(r.stdout).toContain("Drift: 1 unreconciled governed file across 1 affected spec");
    expect(r.stdout).toContain(
      '  .notarai/billing.spec.yaml: 1 unreconciled, 2 reconciled\n    src/billing/refund.ts  via "src/billing/**" (code; modified; hash-differs)',
    );
    expect(r.stdout).toContain("0 errors, 1 warning.");
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("--keep keeps the repository; the PR check there agrees (json)", () => {
    const tmp = tempDir();
    const kept = runCli(["demo", "--keep", "--format", "json"], { cwd: tempDir(), env: { TMPDIR: tmp } });
    expect(kept.code).toBe(0);
    const [dir] = readdirSync(tmp);
    const repo = join(tmp, dir!);
    const demo = JSON.parse(kept.stdout).result;
    const again = runCli(["ci", "--base", "main", "--format", "json"], { cwd: repo });
    expect(again.code).toBe(0);
    const ci = JSON.parse(again.stdout).result;
    expect(ci.drift.specs).toEqual(demo.drift.specs);
    expect(ci.checked).toEqual(["docs/billing.noma", "docs/billing.noma.patches"]);
    expect(runCli(["specs", "validate"], { cwd: repo }).code).toBe(0);
    expect(runCli(["transcript", "verify", "docs/billing.noma"], { cwd: repo }).code).toBe(0);
  });

  it("in the kept repository, `npx noma-reconcile run --spec` with the built-in check and the scripted act agent fixes the drift, reconciles and records it", () => {
    const tmp = tempDir();
    const kept = runCli(["demo", "--keep"], { cwd: tempDir(), env: { TMPDIR: tmp } });
    expect(kept.code).toBe(0);
    const [dir] = readdirSync(tmp);
    const repo = join(tmp, dir!);
    expect(kept.stderr).toContain(`npx noma-reconcile run --spec .notarai/billing.spec.yaml`);
    const records = () => readFileSync(join(repo, "docs/billing.noma.patches"), "utf8").trim().split("\n").length;
    const before = records();
    // `npx noma-reconcile` there runs this CLI (node_modules/.bin, ignored through .git/info/exclude): no registry, no change to the tree.
    expect(git(repo, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
    // The run works in its own worktree and commits on its branch; --apply brings the commit into the checkout.
    const r = npx(["noma-reconcile", "run", "--spec", ".notarai/billing.spec.yaml", "--apply"], repo);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Run \d{8}-\d{6}-[0-9a-f]{6}: PASSED \(verdict PASS\) after 7 steps, iteration 2\./);
    expect(r.stdout).toContain("003 check iteration 1  ok      FAIL: AC1: 1 open drift file (src/billing/refund.ts)");
    expect(r.stdout).toContain("007 check iteration 2  ok      PASS: all 2 criteria hold");
    expect(r.stdout).toContain("Marked reconciled for .notarai/billing.spec.yaml: docs/billing.noma, src/billing/refund.ts");
    expect(r.stdout).toContain("Snapshot: .notarai/reconciliation_state.json");
    const id = /^Run (\d{8}-\d{6}-[0-9a-f]{6}):/.exec(r.stdout)![1]!;
    expect(r.stdout).toContain(
      `4 files (.notarai/reconciliation_state.json, docs/billing.noma, docs/billing.noma.patches, src/billing/refund.ts); worktree .norma/worktrees/${id}/.`,
    );
    expect(r.stdout).toMatch(new RegExp(`Applied run ${id} to feature \\(fast-forward\\)`));
    expect(git(repo, ["log", "-1", "--format=%s"]).trim()).toBe(`chore(reconcile): reconcile .notarai/billing.spec.yaml (run ${id}, PASS)`);
    // Fixed: the code, the handbook (through the patch engine: one more transcript record), both valid.
    expect(readFileSync(join(repo, "src/billing/refund.ts"), "utf8")).toContain("return charged;");
    expect(readFileSync(join(repo, "docs/billing.noma"), "utf8")).toContain("A hotfix that kept a 1% fee was withdrawn");
    expect(records()).toBe(before + 1);
    expect(runCli(["transcript", "verify", "docs/billing.noma"], { cwd: repo }).code).toBe(0);
    // No commit holds the repository's local path: the transcripts (built, then appended to by the run) name the document relative to it.
    expect(committedFilesHolding(repo, repo)).toEqual([]);
    expect(committedFilesHolding(repo, tmp)).toEqual([]);
    // …and the search sees the transcripts: each commit since the agent's patch holds the relative doc_uri.
    const head = git(repo, ["rev-parse", "HEAD"]).trim();
    expect(committedFilesHolding(repo, '"doc_uri":"docs/billing.noma"')).toContain(`${head}:docs/billing.noma.patches`);
    const ci = JSON.parse(runCli(["ci", "--base", "main", "--format", "json"], { cwd: repo }).stdout).result;
    expect(ci.uncommitted).toEqual({ count: 0, paths: [] });
    expect(ci.drift.unreconciled).toBe(0);
    expect(ci.drift.specs).toEqual([
      expect.objectContaining({ spec_path: ".notarai/billing.spec.yaml", unreconciled: [], reconciled: expect.arrayContaining(["src/billing/refund.ts"]) }),
    ]);
    // Recorded: the run, its steps and its events.
    const show = JSON.parse(runCli(["runs", "show", "--format", "json"], { cwd: repo }).stdout).result;
    expect(show.run).toMatchObject({ status: "passed", verdict: "PASS", iteration: 2 });
    expect(show.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining([
        "run_started",
        "verdict",
        "patch_started",
        "patch_applied",
        "drift_acknowledged",
        "marked_reconciled",
        "snapshot_written",
        "run_passed",
      ]),
    );
  });
});
