/**
 * Adopting an existing repository, as a user does it with the built CLI: one
 * command baselines it (`mark-reconciled --all`: every governed file and the spec
 * files, then the snapshot), and `mark-reconciled` of a typo, a directory, an
 * ungoverned or a deleted path says what it did (exit 2 / expands / exit 1 / skips).
 * The MCP `mark_reconciled` agrees (isError for a path git never knew).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoTemplates } from "../helpers/repo-templates.js";
import { runCli } from "../helpers/run-cli.js";
import { git } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { specYaml } from "./helpers/specs.js";
import { branch, commitAll, envelopeResult, read, remove, write } from "./helpers/repo-ops.js";

const CODE = ".notarai/code.spec.yaml";
const DOCS = ".notarai/docs.spec.yaml";
const SNAPSHOT = ".notarai/reconciliation_state.json";
const CACHE_DB = ".notarai/.cache/notarai.db";

const templates = repoTemplates();

/** An existing repository with two specs and no reconciliation yet, on main: a copy of the one built once (test/helpers/repo-templates.ts). */
function existing(): string {
  return templates.repo({
    [CODE]: specYaml({ artifacts: { code: ["src/**"] } }),
    [DOCS]: specYaml({ artifacts: { docs: ["docs/**"] } }),
    "src/a.ts": "a\n",
    "src/lib/b.ts": "b\n",
    "docs/guide.md": "# Guide\n",
    "README.md": "# Project\n",
  });
}

interface Baseline {
  dry_run: boolean;
  specs: Array<{ spec_path: string; files: string[] }>;
  updated: number;
  snapshot_path: string;
  snapshot: { files: number; specs: number; git_hash: string } | null;
  uncommitted: string[];
}

interface Marked {
  updated: number;
  by_spec: Array<{ spec_path: string; files: string[] }>;
  not_marked: Array<{ path: string; reason: string }>;
  deleted: string[];
  dry_run: boolean;
}

describe("mark-reconciled --all: the baseline", () => {
  it("--dry-run says what it would mark and writes nothing", () => {
    const root = existing();
    const r = runCli(["mark-reconciled", "--all", "--dry-run", "--format", "json"], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const b = envelopeResult<Baseline>(r.stdout);
    expect(b).toEqual({
      dry_run: true,
      specs: [
        { spec_path: CODE, files: [CODE, "src/a.ts", "src/lib/b.ts"] },
        { spec_path: DOCS, files: [DOCS, "docs/guide.md"] },
      ],
      updated: 5,
      snapshot_path: SNAPSHOT,
      snapshot: null,
      uncommitted: [],
    });
    const text = runCli(["mark-reconciled", "--all", "--dry-run"], { cwd: root });
    expect(text.stdout).toBe(
      `Dry run: would mark 5 files reconciled for 2 specs (each spec's own file included), then write ${SNAPSHOT}; nothing was written.\n  ${CODE}  3 files\n    ${CODE}\n    src/a.ts\n    src/lib/b.ts\n  ${DOCS}  2 files\n    ${DOCS}\n    docs/guide.md\n`,
    );
    expect(existsSync(join(root, SNAPSHOT))).toBe(false);
    expect(existsSync(join(root, CACHE_DB))).toBe(false);
  });

  it("marks every governed file and the spec files, writes the snapshot, says what to commit; the PR check then reports only real drift", () => {
    const root = existing();
    const r = runCli(["mark-reconciled", "--all"], { cwd: join(root, "src") });
    expect(r.code, r.stderr).toBe(0);
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    expect(r.stdout).toBe(
      [
        "Marked 5 files reconciled for 2 specs (each spec's own file included):",
        `  ${CODE}  3 files`,
        `  ${DOCS}  2 files`,
        `Wrote ${SNAPSHOT}: 3 file fingerprints, 2 spec fingerprints at ${head}.`,
        "Next: commit the snapshot, so the PR check (`ci`) measures drift from this baseline:",
        '  git add .notarai && git commit -m "Baseline the reconciliation (noma-reconcile)"',
        "",
      ].join("\n"),
    );
    const snap = JSON.parse(read(root, SNAPSHOT)) as { file_fingerprints: Record<string, unknown>; spec_fingerprints: Record<string, string> };
    expect(Object.keys(snap.file_fingerprints)).toEqual(["docs/guide.md", "src/a.ts", "src/lib/b.ts"]);
    expect(Object.keys(snap.spec_fingerprints)).toEqual([CODE, DOCS]);
    for (const spec of [CODE, DOCS]) expect(runCli(["changed", "--spec", spec], { cwd: root }).stdout).toBe("");

    // Committed, the snapshot is the PR check's baseline: a branch that edits one file drifts on that file only.
    git(root, ["add", ".notarai"]);
    git(root, ["commit", "-qm", "baseline"]);
    branch(root, "feature");
    write(root, "src/a.ts", "a2\n");
    write(root, DOCS, `${read(root, DOCS)}# a comment\n`);
    commitAll(root, "edit");
    const ci = runCli(["ci", "--base", "main", "--format", "json"], { cwd: root });
    const drift = (JSON.parse(ci.stdout).result as { drift: { specs: Array<{ spec_path: string; unreconciled: Array<{ path: string; reason: string }> }> } })
      .drift;
    expect(drift.specs.map((s) => [s.spec_path, s.unreconciled.map((u) => `${u.path} ${u.reason}`)])).toEqual([
      [CODE, ["src/a.ts hash-differs"]],
      [DOCS, [`${DOCS} hash-differs`]],
    ]);
  });

  it("for the specs named only; files not committed yet are named in the next step", () => {
    const root = existing();
    write(root, "docs/new page.md", "new\n");
    const r = runCli(["mark-reconciled", "--all", "--spec", DOCS, "--format", "json"], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const b = envelopeResult<Baseline>(r.stdout);
    expect(b).toMatchObject({
      dry_run: false,
      specs: [{ spec_path: DOCS, files: [DOCS, "docs/guide.md", "docs/new page.md"] }],
      updated: 3,
      snapshot: { files: 2, specs: 1 },
      uncommitted: ["docs/new page.md"],
    });
    expect(runCli(["changed", "--spec", CODE], { cwd: root }).stdout).toBe("src/a.ts\nsrc/lib/b.ts\n");
    const text = runCli(["mark-reconciled", "--all", "--spec", DOCS], { cwd: root });
    expect(text.stdout).toContain(
      "Next: commit the snapshot and the 1 marked file not committed yet, so the PR check (`ci`) measures drift from this baseline:\n  git add 'docs/new page.md' && git add .notarai && git commit",
    );
  });

  it("refuses, writing nothing, while a spec it would baseline is invalid, and with paths", () => {
    const root = existing();
    write(root, ".notarai/broken.spec.yaml", 'schema_version: "0.7"\nintent: x\n');
    const r = runCli(["mark-reconciled", "--all"], { cwd: root });
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toContain(".notarai/broken.spec.yaml is invalid, so which files it governs is unknown");
    expect(r.stderr).toContain(`or baseline the others: mark-reconciled --all --spec ${CODE} --spec ${DOCS}`);
    expect(existsSync(join(root, SNAPSHOT))).toBe(false);
    expect(existsSync(join(root, CACHE_DB))).toBe(false);
    expect(runCli(["mark-reconciled", "--all", "--spec", CODE], { cwd: root }).code).toBe(0);
    const both = runCli(["mark-reconciled", "--all", "src"], { cwd: root });
    expect(both).toMatchObject({ code: 2, stdout: "" });
    expect(both.stderr).toContain("give either --all or paths, not both");
    expect(runCli(["mark-reconciled", "--all", "--spec", ".notarai/none.spec.yaml"], { cwd: root }).code).toBe(2);
  });
});

describe("mark-reconciled PATH…", () => {
  it("a path that does not exist and git never knew: exit 2, one line naming it, nothing marked", () => {
    const root = existing();
    const r = runCli(["mark-reconciled", "src/a.ts", "src/typo.ts"], { cwd: root });
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: "noma-reconcile: src/typo.ts: no such file or directory, and git has never known it (a typo?); nothing was marked\n",
    });
    expect(runCli(["changed", "--spec", CODE], { cwd: root }).stdout).toBe("src/a.ts\nsrc/lib/b.ts\n");
    expect(runCli(["mark-reconciled", "../outside.ts"], { cwd: root }).code).toBe(2);
  });

  it("a directory stands for the governed files under it, counted per spec", () => {
    const root = existing();
    let r = runCli(["mark-reconciled", "src"], { cwd: root });
    expect(r).toMatchObject({ code: 0, stdout: `Marked 2 files as reconciled: 2 for ${CODE}.\n` });
    expect(runCli(["changed", "--spec", CODE], { cwd: root }).stdout).toBe("");
    r = runCli(["mark-reconciled", ".", "--dry-run", "--format", "json"], { cwd: root });
    expect(envelopeResult<Marked>(r.stdout)).toEqual({
      updated: 5,
      by_spec: [
        { spec_path: CODE, files: [CODE, "src/a.ts", "src/lib/b.ts"] },
        { spec_path: DOCS, files: [DOCS, "docs/guide.md"] },
      ],
      not_marked: [],
      deleted: [],
      dry_run: true,
    });
    // No governed file under it for the spec named: a finding, nothing marked.
    r = runCli(["mark-reconciled", "docs/", "--spec", CODE], { cwd: root });
    expect(r).toMatchObject({ code: 1, stdout: `Marked 0 files as reconciled.\nNot marked: docs/ (${CODE} governs no file under it that git knows).\n` });
  });

  it("an existing file no spec governs: exit 1 naming it and why; the others are marked", () => {
    const root = existing();
    write(root, ".gitignore", "*.log\n");
    write(root, "src/debug.log", "x\n");
    const r = runCli(["mark-reconciled", "README.md", "src/a.ts", "src/debug.log", "--format", "json"], { cwd: root });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      schema: "noma-reconcile/mark-reconciled@2",
      ok: false,
      result: {
        updated: 1,
        by_spec: [{ spec_path: CODE, files: ["src/a.ts"] }],
        not_marked: [
          { path: "README.md", reason: "no spec governs it" },
          { path: "src/debug.log", reason: "git ignores it, and specs govern only the files git knows" },
        ],
      },
    });
    const text = runCli(["mark-reconciled", "README.md", "docs/guide.md", "--spec", CODE], { cwd: root });
    expect(text).toMatchObject({
      code: 1,
      stdout: `Marked 0 files as reconciled.\nNot marked: README.md (no spec governs it).\nNot marked: docs/guide.md (${CODE} does not govern it).\n`,
    });
  });

  it("a deleted file git knows (as get_spec_diff lists it) is skipped: nothing to record, exit 0", () => {
    const root = existing();
    branch(root, "feature");
    git(root, ["rm", "-q", "src/lib/b.ts"]);
    commitAll(root, "remove b");
    remove(root, "src/a.ts");
    const r = runCli(["mark-reconciled", "src/lib/b.ts", "src/a.ts", "docs/guide.md"], { cwd: root });
    expect(r).toMatchObject({
      code: 0,
      stdout: `Marked 1 file as reconciled: 1 for ${DOCS}.\nSkipped (deleted; nothing to record): src/a.ts, src/lib/b.ts.\n`,
    });
  });

  it("the MCP tool agrees: isError for a path git never knew, a directory expands, ungoverned paths are listed", async () => {
    const root = existing();
    const c = new McpClient(root);
    await c.initialize();
    expect(await c.fails("mark_reconciled", { files: ["src/a.ts", "src/typo.ts"] })).toBe(
      "src/typo.ts: no such file or directory, and git has never known it (a typo?); nothing was marked",
    );
    expect(await c.ok("mark_reconciled", { files: ["src"] })).toEqual({ updated: 2 });
    expect(await c.ok("mark_reconciled", { files: ["README.md", "docs"], spec_path: DOCS })).toEqual({
      updated: 1,
      not_marked: [{ path: "README.md", reason: "no spec governs it" }],
    });
    await c.close();
  });
});
