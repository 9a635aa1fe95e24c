/**
 * The pre-commit hook with `fix_on_commit: true` (and `check --staged --fix`), through real
 * `git commit`s running the real hook:
 * - the staged document's fixes are applied, re-staged and committed, and the hook says so;
 *   with a transcript, its records are re-staged and committed too (append-only holds);
 * - `git commit -a` (temporary index.lock) commits the fixes; `git commit <path>` (a temporary
 *   next-index) commits them and says the real index keeps the unfixed copy;
 * - a document with unstaged changes (or an unstaged transcript) is not fixed: the hook says
 *   why and judges what is staged;
 * - off by default: nothing is fixed, the commit is blocked on the errors.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { patchInProcess } from "../../helpers/patch-in-process.js";
import { runCli } from "../../helpers/run-cli.js";
import { git, writeTree } from "../../helpers/temp-repo.js";
import { commit, hookRepo } from "./hook-repo.js";
import { CLAIM } from "./fixtures.js";

const ON = { ".notarai/config.yaml": "fix_on_commit: true\n" };
/** A broken reference with one lookalike target (line 7), fixed to for="c1". */
const FIXABLE = `${CLAIM}\n::evidence{id="e2" for="C1"}\nMore.\n::\n`;
const FIXED = `${CLAIM}\n::evidence{id="e2" for="c1"}\nMore.\n::\n`;

const show = (repo: string, spec: string): string => git(repo, ["show", spec]);

describe("pre-commit hook: fix_on_commit", () => {
  it("fixes the staged document, re-stages it, commits the fix and says so", () => {
    const repo = hookRepo({ ...ON, "docs/plan.noma": CLAIM });
    writeTree(repo, { "docs/plan.noma": FIXABLE });
    git(repo, ["add", "-A"]);
    const r = commit(repo, ["-m", "more evidence"]);
    expect(r.code).toBe(0);
    expect(r.output).toContain("noma-reconcile: fixed docs/plan.noma: 1 fix (broken-reference); re-staged docs/plan.noma");
    expect(r.output).not.toContain("ERROR");
    expect(show(repo, "HEAD:docs/plan.noma")).toBe(FIXED);
    expect(readFileSync(join(repo, "docs/plan.noma"), "utf8")).toBe(FIXED);
    expect(git(repo, ["status", "--porcelain"])).toBe("");
  });

  it("with a transcript: its records are re-staged and committed, and it verifies", () => {
    const repo = hookRepo({ ...ON, "docs/plan.noma": CLAIM });
    // The patch only prepares the state the hook judges: in process (test/helpers/patch-in-process.ts; it asserts the op applied).
    patchInProcess(repo, "docs/plan.noma", { op: "add_block", parent: "plan", content: '::evidence{id="e2" for="C1"}\nMore.\n::' });
    git(repo, ["add", "-A"]);
    const r = commit(repo, ["-m", "patched, then fixed by the hook"]);
    expect(r.code).toBe(0);
    expect(r.output).toContain("re-staged docs/plan.noma, docs/plan.noma.patches");
    expect(show(repo, "HEAD:docs/plan.noma")).toContain('::evidence{id="e2" for="c1"}');
    const transcript = show(repo, "HEAD:docs/plan.noma.patches").trim().split("\n");
    expect(transcript).toHaveLength(2);
    expect(JSON.parse(transcript[1]!)).toMatchObject({
      actor: { name: "noma-reconcile check --fix" },
      op: { op: "update_attribute", id: "e2", key: "for", value: "c1" },
    });
    expect(git(repo, ["status", "--porcelain"])).toBe("");
    expect(runCli(["transcript", "verify", "docs/plan.noma", "--strict"], { cwd: repo }).code).toBe(0);
  });

  it("git commit -a: the fix lands in the commit and the index", () => {
    const repo = hookRepo({ ...ON, "docs/plan.noma": CLAIM });
    writeTree(repo, { "docs/plan.noma": FIXABLE });
    const r = commit(repo, ["-a", "-m", "all"]);
    expect(r.code).toBe(0);
    expect(r.output).toContain("fixed docs/plan.noma");
    expect(show(repo, "HEAD:docs/plan.noma")).toBe(FIXED);
    expect(git(repo, ["status", "--porcelain"])).toBe("");
  });

  it("git commit <path>: the fix lands in the commit; the hook says the real index keeps the unfixed copy", () => {
    const repo = hookRepo({ ...ON, "docs/plan.noma": CLAIM, "other.txt": "a\n" });
    writeTree(repo, { "docs/plan.noma": FIXABLE, "other.txt": "b\n" });
    git(repo, ["add", "other.txt"]);
    const r = commit(repo, ["-m", "only the plan", "docs/plan.noma"]);
    expect(r.code).toBe(0);
    expect(r.output).toContain("fixed docs/plan.noma");
    expect(r.output).toContain(
      "git commit <path> commits from a temporary index: the fixes are in this commit, but your index keeps the unfixed copies; after the commit, `git add docs/plan.noma`",
    );
    expect(show(repo, "HEAD:docs/plan.noma")).toBe(FIXED);
    // other.txt stayed staged and out of the commit.
    expect(show(repo, "HEAD:other.txt")).toBe("a\n");
    expect(git(repo, ["diff", "--cached", "--name-only"])).toContain("other.txt");
  });

  it("a document with unstaged changes is not fixed: the hook says why and judges what is staged", () => {
    const repo = hookRepo({ ...ON, "docs/plan.noma": CLAIM });
    writeTree(repo, { "docs/plan.noma": FIXABLE });
    git(repo, ["add", "-A"]);
    writeFileSync(join(repo, "docs/plan.noma"), `${FIXABLE}\nUnstaged words.\n`);
    const r = commit(repo, ["-m", "partly staged"]);
    expect(r.code).toBe(1);
    expect(r.output).toContain(
      "noma-reconcile: not fixed: docs/plan.noma: 1 fix (broken-reference) possible, but it has unstaged changes; run `noma-reconcile check --fix docs/plan.noma` and stage the result",
    );
    expect(r.output).toContain("ERROR [broken-reference] docs/plan.noma:11:1:");
    expect(readFileSync(join(repo, "docs/plan.noma"), "utf8")).toBe(`${FIXABLE}\nUnstaged words.\n`);
  });

  it("a transcript with unstaged records keeps its document unfixed", () => {
    const repo = hookRepo({ ...ON, "docs/plan.noma": FIXABLE });
    patchInProcess(repo, "docs/plan.noma", { op: "update_attribute", id: "c1", key: "confidence", value: 0.7 });
    git(repo, ["add", "docs/plan.noma"]);
    const r = commit(repo, ["-m", "document without its transcript"]);
    expect(r.output).toContain("not fixed: docs/plan.noma: 1 fix (broken-reference) possible, but docs/plan.noma.patches is not staged");
    expect(r.code).toBe(1);
  });

  it("off by default: nothing is fixed and the commit is blocked; check --staged --fix asks for it once", () => {
    const repo = hookRepo({ "docs/plan.noma": CLAIM });
    writeTree(repo, { "docs/plan.noma": FIXABLE });
    git(repo, ["add", "-A"]);
    const r = commit(repo, ["-m", "unfixed"]);
    expect(r.code).toBe(1);
    expect(r.output).not.toContain("fixed docs/plan.noma");
    expect(readFileSync(join(repo, "docs/plan.noma"), "utf8")).toBe(FIXABLE);
    const once = runCli(["check", "--staged", "--fix"], { cwd: repo });
    expect(once.code).toBe(0);
    expect(once.stderr).toContain("fixed docs/plan.noma: 1 fix (broken-reference); re-staged docs/plan.noma");
    expect(git(repo, ["diff", "--cached"])).toContain('+::evidence{id="e2" for="c1"}');
    expect(commit(repo, ["-m", "fixed"]).code).toBe(0);
  });
});
