/**
 * What `check` says when there is little to say, spawned as a process in real git repositories:
 * - paths named that hold no document: said on stdout, exit 2 (a file named is expected checked);
 * - no paths in a repository without documents, or nothing staged: exit 0 with a clear line;
 * - paths whose documents the configuration's exclude leaves out: exit 0, said;
 * - `--max-warnings N`: exit 1 when there are more warnings than N, with a line saying so.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo, writeTree } from "../helpers/temp-repo.js";

const VALID = "# Intro\n\nAll good.\n";
const WARNS = '::risk{id="r"}\nno owner\n::\n';
const NOTHING = "no .noma documents, books, transcripts, sidecars or specs in: ";

describe("check: paths with nothing to check", () => {
  it("a named file that is no document: stdout says so, exit 2; JSON prints no report", () => {
    const repo = tempRepo({ "README.md": "# Readme\n", "docs/x.txt": "x\n" });
    expect(runCli(["check", "README.md"], { cwd: repo })).toMatchObject({ code: 2, stdout: `${NOTHING}README.md\n` });
    expect(runCli(["check", "README.md", "docs"], { cwd: repo })).toMatchObject({ code: 2, stdout: `${NOTHING}README.md, docs\n` });
    const json = runCli(["check", "README.md", "--format", "json"], { cwd: repo });
    expect(json).toMatchObject({ code: 2, stdout: "" });
    expect(json.stderr).toContain(`${NOTHING}README.md`);
  });

  it("beside a document, a path with nothing in it is named on stderr and the exit is the documents'", () => {
    const repo = tempRepo({ "README.md": "# Readme\n", "a.noma": VALID });
    const r = runCli(["check", "a.noma", "README.md"], { cwd: repo });
    expect(r).toMatchObject({ code: 0, stdout: "✓ No issues found.\n" });
    expect(r.stderr).toContain(`noma-reconcile: ${NOTHING}README.md\n`);
    expect(r.stderr).not.toContain("a.noma\n");
  });

  it("no paths in a repository without documents: exit 0 and a line saying there is nothing to check", () => {
    const repo = tempRepo({ "README.md": "# Readme\n" });
    writeTree(repo, { "draft.noma": VALID });
    expect(runCli(["check"], { cwd: repo })).toMatchObject({
      code: 0,
      stdout: "nothing to check: no tracked .noma documents, books, transcripts, sidecars or specs.\n",
    });
  });

  it("check --staged with nothing staged stays quiet on stdout and exits 0 (the hook never blocks for it)", () => {
    const repo = tempRepo({ "README.md": "# Readme\n" });
    writeTree(repo, { "README.md": "# Readme, edited\n" });
    git(repo, ["add", "README.md"]);
    const r = runCli(["check", "--staged"], { cwd: repo });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(r.stderr).toContain("nothing staged to check");
  });

  it("documents the configuration's exclude leaves out: exit 0 and said, not 'no documents'", () => {
    const repo = tempRepo({ ".notarai/config.yaml": 'exclude: ["fixtures/**"]\n', "fixtures/a.noma": VALID, "fixtures/b.noma": VALID, "docs/ok.noma": VALID });
    expect(runCli(["check", "fixtures"], { cwd: repo })).toMatchObject({
      code: 0,
      stdout: "nothing to check in fixtures: 2 files there excluded by the configuration's exclude.\n",
    });
    // In JSON the line goes to stderr, once; the (empty) report is stdout's, exit 0.
    const json = runCli(["check", "fixtures", "--format", "json"], { cwd: repo });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, summary: { files: 0 } });
    expect(json.stderr.match(/nothing to check in fixtures/g)).toHaveLength(1);
    const both = runCli(["check", "fixtures", "docs"], { cwd: repo });
    expect(both).toMatchObject({ code: 0, stdout: "✓ No issues found.\n" });
    expect(both.stderr).toContain("nothing to check in fixtures: 2 files there excluded by the configuration's exclude");
    const all = tempRepo({ ".notarai/config.yaml": 'exclude: ["**/*.noma"]\n', "a.noma": VALID });
    expect(runCli(["check"], { cwd: all })).toMatchObject({
      code: 0,
      stdout: "nothing to check: the configuration's exclude leaves out all 1 tracked file check would judge.\n",
    });
  });
});

describe("check --max-warnings", () => {
  it("exits 1 when the warnings are more than N, saying so; N or fewer pass", () => {
    const repo = tempRepo({ "w.noma": WARNS, "v.noma": WARNS.replace('id="r"', 'id="s"') });
    expect(runCli(["check"], { cwd: repo }).code).toBe(0);
    expect(runCli(["check", "--max-warnings", "2"], { cwd: repo }).code).toBe(0);
    const over = runCli(["check", "--max-warnings", "1"], { cwd: repo });
    expect(over.code).toBe(1);
    expect(over.stdout).toContain("WARNING [risk-without-owner] w.noma:1:1:");
    expect(over.stderr).toContain("Too many warnings: 2, more than --max-warnings 1 allows.\n");
    const json = runCli(["check", "--max-warnings", "0", "--format", "json"], { cwd: repo });
    expect(json.code).toBe(1);
    // The envelope says what the exit code says: not ok, and why (the line stderr has too).
    const env = JSON.parse(json.stdout) as { ok: boolean; summary: unknown; warnings: string[]; result: { files: Array<{ file: string }> } };
    expect(env).toMatchObject({
      ok: false,
      summary: { files: 2, errors: 0, warnings: 2, infos: 0 },
      warnings: ["Too many warnings: 2, more than --max-warnings 0 allows."],
    });
    expect(env.result.files.map((f) => f.file)).toEqual(["v.noma", "w.noma"]);
    expect(json.stderr).toContain("noma-reconcile: Too many warnings: 2, more than --max-warnings 0 allows.");
    const within = JSON.parse(runCli(["check", "--max-warnings", "2", "--format", "json"], { cwd: repo }).stdout) as { ok: boolean; warnings: string[] };
    expect(within).toMatchObject({ ok: true, warnings: [] });
  });

  it("rejects a value that is not a whole number (exit 2)", () => {
    const repo = tempRepo({ "w.noma": WARNS });
    for (const bad of ["x", "-1", "1.5"]) {
      const r = runCli(["check", `--max-warnings=${bad}`], { cwd: repo });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("--max-warnings takes a whole number");
    }
  });

  it("in the hook, --max-warnings 0 blocks a commit that stages a warning", () => {
    const repo = tempRepo({ "a.noma": VALID });
    writeTree(repo, { "w.noma": WARNS });
    git(repo, ["add", "w.noma"]);
    expect(runCli(["check", "--staged"], { cwd: repo }).code).toBe(0);
    const r = runCli(["check", "--staged", "--max-warnings", "0"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Too many warnings: 1, more than --max-warnings 0 allows.\nCommit blocked. Fix the warnings above");
  });
});
