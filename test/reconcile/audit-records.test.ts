/**
 * The records the tools write for audit — the workspace tools' evidence ledger and
 * archive, the run loop's `.norma/`, edit transcripts — are never governed, so never
 * drift, whatever a spec's glob covers and wherever the configuration puts them:
 * written by the real tools (the MCP server's edit_file and read_file, `patch`,
 * `run`), judged by the real CLI (changed, affected, diff, ci, governs, coverage,
 * mark-reconciled, the baseline).
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { baselineReconciliation } from "../../src/reconcile/baseline-reconciliation.js";
import { markReconciled } from "../../src/reconcile/mark-reconciled.js";
import { snapshotState } from "../../src/reconcile/snapshot-state.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { specYaml } from "./helpers/specs.js";
import { branch, commitAll, envelopeResult, remove, write } from "./helpers/repo-ops.js";

const DOCS = ".notarai/docs.spec.yaml";
const ALL = ".notarai/all.spec.yaml";
const LEDGER = "docs/evidence_ledger.tools.log";

function repo(extra: Record<string, string> = {}): string {
  return tempRepo({
    [DOCS]: specYaml({ artifacts: { docs: ["docs/**"] } }),
    [ALL]: specYaml({ artifacts: { everything: ["**"] } }),
    "docs/guide.md": "# Guide\n",
    "docs/plan.noma": '# Plan\n\n::claim{id="c1" confidence=0.5}\nThe app works.\n::\n',
    "src/app.ts": "export const app = 1;\n",
    ...extra,
  });
}

/**
 * What `mark-reconciled --all` (exit 0) does, in process, where it only baselines a repository no
 * tool has written a record in yet (its judging records is tested where they exist, through the CLI).
 */
async function baselineInProcess(root: string): Promise<void> {
  expect((await baselineReconciliation(root)).snapshot).not.toBeNull();
}

/** What `state snapshot` (exit 0) writes, in process: set-up for the PR check (the command is tested as a process in test/reconcile/cli.test.ts). */
async function snapshotInProcess(root: string): Promise<void> {
  expect((await snapshotState(root)).state_path).toBe(join(root, ".notarai/reconciliation_state.json"));
}

/** Edit a file through the workspace tools (MCP edit_file): the ledger gets a line, the archive the old version. */
async function editThroughTools(root: string, path: string, contents: string): Promise<void> {
  const c = new McpClient(root);
  await c.initialize();
  expect(await c.ok("edit_file", { path, contents })).toMatchObject({ success: true, archived: { version: 1 } });
  await c.close();
}

/** Every file under `dir` (repository-relative), sorted. */
function filesUnder(root: string, dir: string): string[] {
  return (readdirSync(join(root, dir), { recursive: true, withFileTypes: true }) as Array<{ isFile(): boolean; parentPath: string; name: string }>)
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort();
}

function changed(root: string, spec: string): string[] {
  const r = runCli(["changed", "--spec", spec], { cwd: root });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split("\n").filter((l) => l.length > 0);
}

describe("audit records are never drift", () => {
  it("the ledger, the archive and a transcript, under a docs/** and a ** spec: changed, diff, ci, governs, coverage, mark-reconciled", async () => {
    const root = repo();
    await baselineInProcess(root);
    commitAll(root, "baseline");
    branch(root, "feature");

    await editThroughTools(root, "docs/guide.md", "# Guide\n\nEdited by an agent.\n");
    const patched = runCli(
      ["patch", "docs/plan.noma", "--op", JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value: 0.9 }), "--actor-name", "t"],
      { cwd: root },
    );
    expect(patched.code, patched.stderr).toBe(0);
    const archived = filesUnder(root, "archive");
    expect(archived).toEqual([expect.stringMatching(/^archive\/\d{4}\/\d{2}\/docs\/guide\.md\.tar\.zst$/)]);
    expect(existsSync(join(root, LEDGER))).toBe(true);
    expect(existsSync(join(root, "docs/plan.noma.patches"))).toBe(true);

    // Only the documents themselves are work to reconcile.
    expect(changed(root, DOCS)).toEqual(["docs/guide.md", "docs/plan.noma"]);
    expect(changed(root, ALL)).toEqual(["docs/guide.md", "docs/plan.noma"]);
    const diff = envelopeResult<{ files: string[] }>(runCli(["diff", "--spec", ALL, "--base", "main", "--format", "json"], { cwd: root }).stdout);
    expect(diff.files).toEqual(["docs/guide.md", "docs/plan.noma"]);
    const governs = runCli(["governs", LEDGER, archived[0]!, "docs/plan.noma.patches"], { cwd: root });
    expect(governs.code).toBe(1);
    expect(governs.stdout).toContain(`${LEDGER}: not governed (the workspace tools' evidence ledger (workspace.ledger), a record the tools keep for audit)`);
    expect(governs.stdout).toContain(`${archived[0]}: not governed (a version the workspace tools archived`);
    expect(governs.stdout).toContain("docs/plan.noma.patches: not governed (an edit transcript");

    // Marking them is refused with the reason; the documents mark as usual.
    const mark = runCli(["mark-reconciled", LEDGER, "docs/plan.noma.patches", "docs/guide.md", "docs/plan.noma"], { cwd: root });
    expect(mark.code).toBe(1);
    expect(mark.stdout).toContain(
      `Not marked: ${LEDGER} (the workspace tools' evidence ledger (workspace.ledger): a record the tools keep for audit, never governed).`,
    );
    expect(mark.stdout).toContain(
      "Not marked: docs/plan.noma.patches (an edit transcript (its document is what specs govern): a record the tools keep for audit, never governed).",
    );
    expect(changed(root, DOCS)).toEqual([]);
    await snapshotInProcess(root);
    commitAll(root, "agent edits, reconciled");

    const ci = runCli(["ci", "--base", "main", "--format", "json"], { cwd: root });
    const report = JSON.parse(ci.stdout).result as {
      changed_files: string[];
      drift: { unreconciled: number; specs: Array<{ reconciled: string[]; unreconciled: Array<{ path: string }> }> };
    };
    expect(report.changed_files).toEqual(expect.arrayContaining([LEDGER, archived[0], "docs/plan.noma.patches"]));
    expect(report.drift.unreconciled, ci.stdout).toBe(0);
    const judged = new Set(report.drift.specs.flatMap((s) => [...s.reconciled, ...s.unreconciled.map((u) => u.path)]));
    expect([...judged].sort()).toEqual(["docs/guide.md", "docs/plan.noma"]);

    // Out of coverage's scope too: neither governed nor uncovered.
    const cov = envelopeResult<{ uncovered: string[] }>(runCli(["coverage", "--format", "json"], { cwd: root }).stdout);
    expect(cov.uncovered).toEqual([]);
  });

  it("a change that only appends to the ledger affects no spec", async () => {
    const root = repo();
    await editThroughTools(root, "docs/guide.md", "# Guide 2\n");
    commitAll(root, "edited, ledger and archive committed");
    const base = git(root, ["rev-parse", "HEAD"]).trim();
    const c = new McpClient(root);
    await c.initialize();
    expect(await c.ok("read_file", { path: "docs/guide.md" })).toMatchObject({ success: true });
    await c.close();
    const r = runCli(["affected", "--base", base, "--format", "json"], { cwd: root });
    expect(envelopeResult(r.stdout)).toEqual({ changed_files: [LEDGER], affected_specs: [] });
  });

  it("where the configuration puts them; a repository's own archive/ and a file at the default ledger path stay governed", async () => {
    const root = repo({
      ".notarai/config.yaml": "workspace:\n  ledger: records/tools.log\n  archive: records/old\n",
      "archive/2019-notes.md": "old notes\n",
      [LEDGER]: "a file of the project's own\n",
    });
    expect(changed(root, ALL)).toContain(LEDGER);
    expect(runCli(["mark-reconciled", "--all"], { cwd: root }).code).toBe(0);
    await editThroughTools(root, "src/app.ts", "export const app = 2;\n");
    expect(existsSync(join(root, "records/tools.log"))).toBe(true);
    expect(filesUnder(root, "records/old")).toEqual([expect.stringMatching(/^records\/old\/\d{4}\/\d{2}\/src\/app\.ts\.tar\.zst$/)]);
    expect(changed(root, ALL)).toEqual(["src/app.ts"]);
    write(root, "archive/2019-notes.md", "edited\n");
    write(root, LEDGER, "edited\n");
    expect(changed(root, ALL)).toEqual(["archive/2019-notes.md", LEDGER, "src/app.ts"]);
    expect(changed(root, DOCS)).toEqual([LEDGER]);

    // Back to the defaults, seen on the next run (the remembered specs are keyed by the configuration too):
    // the records written under records/ are plain files now, the file at the default ledger path is not.
    remove(root, ".notarai/config.yaml");
    expect(changed(root, ALL)).toEqual([
      "archive/2019-notes.md",
      expect.stringMatching(/^records\/old\/\d{4}\/\d{2}\/src\/app\.ts\.tar\.zst$/),
      "records/tools.log",
      "src/app.ts",
    ]);
    write(root, ".notarai/config.yaml", "workspace:\n  ledger: [not, a, path]\n");
    const bad = runCli(["changed", "--spec", ALL], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(".notarai/config.yaml:2");
  });

  it("ci takes the locations from the configuration committed at HEAD", async () => {
    const root = repo({ ".notarai/config.yaml": "workspace:\n  ledger: records/tools.log\n  archive: records/old\n" });
    await baselineInProcess(root);
    commitAll(root, "baseline");
    branch(root, "feature");
    await editThroughTools(root, "src/app.ts", "export const app = 2;\n");
    expect((await markReconciled(root, { files: ["src/app.ts"] })).not_marked).toEqual([]);
    await snapshotInProcess(root);
    commitAll(root, "agent edit, reconciled");
    // The work tree's configuration goes back to the defaults: ci must not read it.
    remove(root, ".notarai/config.yaml");
    const ci = runCli(["ci", "--base", "main", "--format", "json"], { cwd: root });
    const report = JSON.parse(ci.stdout).result as {
      changed_files: string[];
      drift: { unreconciled: number; specs: Array<{ reconciled: string[]; unreconciled: Array<{ path: string }> }> };
    };
    expect(report.changed_files).toEqual(expect.arrayContaining(["records/tools.log", "src/app.ts"]));
    expect(report.drift.unreconciled, ci.stdout).toBe(0);
    const judged = new Set(report.drift.specs.flatMap((s) => [...s.reconciled, ...s.unreconciled.map((u) => u.path)]));
    expect([...judged].sort()).toEqual(["src/app.ts"]);
  });

  it("the run loop's records under .norma/ (a repository that commits them), but not its config.json", async () => {
    const root = repo();
    await baselineInProcess(root);
    commitAll(root, "baseline");
    const run = runCli(["run", "--spec", DOCS], { cwd: root });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    remove(root, ".norma/.gitignore");
    write(root, ".norma/config.json", '{ "budgets": { "max_iterations": 2 } }\n');
    expect(filesUnder(root, ".norma").length).toBeGreaterThan(3);
    expect(changed(root, ALL)).toEqual([".norma/config.json"]);
  });
});
