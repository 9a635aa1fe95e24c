/**
 * `fmt` through the real CLI in real repositories:
 * - formats every tracked document (or the paths given, directories expanded), idempotently;
 *   `--check` writes nothing and exits 1 listing what would change; `--diff`; `--format json`;
 * - paths stay in the repository; a file that is not a document is a usage error; the
 *   configuration's `exclude` is honoured; documents with parse errors are skipped and said so;
 * - a document with a transcript gets one `format_document` record: `transcript verify
 *   --strict` is clean and `--base` replays it byte for byte; the hook commits it (append-only);
 * - the write waits for the document's lock; `patch` refuses format_document (unsupported_op);
 * - the engine refuses a format_document that changes meaning (invalid_content).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatch } from "../../src/patch/apply-patch.js";
import { patchInProcess } from "../helpers/patch-in-process.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { commit, hookRepo } from "../check/staged/hook-repo.js";

const MESSY =
  '# Plan\nIntro.\n::claim{ id="c1"  confidence="0.9" }\n\nThe claim.\n\n::\n\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n| a | b |\n|-|-|\n|long cell|x|\n';
const TIDY =
  '# Plan\n\nIntro.\n\n::claim{id="c1" confidence=0.9}\nThe claim.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n\n| a         | b   |\n| --------- | --- |\n| long cell | x   |\n';

describe("fmt", () => {
  it("formats every tracked document, and a second run changes nothing", () => {
    const repo = tempRepo({ "docs/a.noma": MESSY, "b.noma": TIDY, "notes.md": "# not a document\n" });
    const r = runCli(["fmt"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("formatted docs/a.noma\n");
    expect(r.stderr).toContain("2 documents checked: 1 formatted, 1 already formatted.");
    expect(readFileSync(join(repo, "docs/a.noma"), "utf8")).toBe(TIDY);
    expect(readFileSync(join(repo, "notes.md"), "utf8")).toBe("# not a document\n");
    // No transcript is started for a document that has none.
    expect(existsSync(join(repo, "docs/a.noma.patches"))).toBe(false);
    const again = runCli(["fmt"], { cwd: repo });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("");
    expect(readFileSync(join(repo, "docs/a.noma"), "utf8")).toBe(TIDY);
  });

  it("--check writes nothing, lists what would change and exits 1; 0 once formatted", () => {
    const repo = tempRepo({ "docs/a.noma": MESSY, "b.noma": TIDY });
    const r = runCli(["fmt", "--check"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("would reformat docs/a.noma\n");
    expect(r.stderr).toContain("1 would be reformatted; run `noma-reconcile fmt` to format it.");
    expect(readFileSync(join(repo, "docs/a.noma"), "utf8")).toBe(MESSY);
    expect(git(repo, ["status", "--porcelain"])).toBe("");
    expect(runCli(["fmt", "docs/a.noma"], { cwd: repo }).code).toBe(0);
    const clean = runCli(["fmt", "--check"], { cwd: repo });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe("");
  });

  it("--diff prints a unified diff; --format json reports each document", () => {
    const repo = tempRepo({ "a.noma": "# T\ntext\n", "b.noma": TIDY });
    const r = runCli(["fmt", "--check", "--diff"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("would reformat a.noma\n--- a/a.noma\n+++ b/a.noma\n@@ -1,2 +1,3 @@\n # T\n+\n text\n");
    const j = runCli(["fmt", "--check", "--format", "json"], { cwd: repo });
    expect(j.code).toBe(1);
    const out = JSON.parse(j.stdout);
    expect(out).toMatchObject({
      schema: "noma-reconcile/fmt@2",
      command: "fmt --check",
      ok: false,
      summary: { documents: 2, would_format: 1, unchanged: 1, skipped: 0 },
      result: { check: true },
    });
    expect(out.result.files).toEqual([
      { file: "a.noma", status: "would-format" },
      { file: "b.noma", status: "unchanged" },
    ]);
  });

  it("expands directories, refuses files that are not documents and paths outside the repository, honours exclude", () => {
    const repo = tempRepo({
      "docs/a.noma": MESSY,
      "docs/sub/b.noma": MESSY,
      "other/c.noma": MESSY,
      "fixtures/bad.noma": MESSY,
      ".notarai/config.yaml": 'exclude: ["fixtures/**"]\n',
      "notes.md": "x\n",
    });
    const r = runCli(["fmt", "docs"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("formatted docs/a.noma\nformatted docs/sub/b.noma\n");
    expect(readFileSync(join(repo, "other/c.noma"), "utf8")).toBe(MESSY);
    const all = runCli(["fmt", "--check"], { cwd: repo });
    expect(all.stdout).toBe("would reformat other/c.noma\n");
    // Named explicitly, an excluded document is formatted.
    expect(runCli(["fmt", "--check", "fixtures/bad.noma"], { cwd: repo }).stdout).toBe("would reformat fixtures/bad.noma\n");
    const md = runCli(["fmt", "notes.md"], { cwd: repo });
    expect(md.code).toBe(2);
    expect(md.stderr).toContain("notes.md: fmt formats .noma documents; this is not one");
    const outside = join(tempDir(), "x.noma");
    writeFileSync(outside, MESSY);
    const o = runCli(["fmt", outside], { cwd: repo });
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/outside the repository/);
    expect(readFileSync(outside, "utf8")).toBe(MESSY);
    const missing = runCli(["fmt", "nope.noma"], { cwd: repo });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nope.noma: no such file or directory");
  });

  it("says when there is nothing to format: no documents at all (exit 0), none in the paths named (exit 2), all excluded (exit 0)", () => {
    const none = tempRepo({ "notes.md": "x\n", "empty/keep.txt": "" });
    let r = runCli(["fmt"], { cwd: none });
    expect({ code: r.code, stdout: r.stdout }).toEqual({
      code: 0,
      stdout: "nothing to format: no tracked .noma documents (a new one is formatted once git knows it, or when named).\n",
    });
    r = runCli(["fmt", "--check", "empty"], { cwd: none });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: "nothing to format in empty: no .noma documents there\n" });
    r = runCli(["fmt", "empty", "--format", "json"], { cwd: none });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: "" });
    expect(r.stderr).toContain("nothing to format in empty: no .noma documents there");
    const excluded = tempRepo({ "fixtures/a.noma": MESSY, "fixtures/b.noma": MESSY, ".notarai/config.yaml": 'exclude: ["fixtures/**"]\n' });
    r = runCli(["fmt", "fixtures"], { cwd: excluded });
    expect({ code: r.code, stdout: r.stdout }).toEqual({
      code: 0,
      stdout: "nothing to format in fixtures: 2 documents there excluded by the configuration's exclude\n",
    });
    expect(readFileSync(join(excluded, "fixtures/a.noma"), "utf8")).toBe(MESSY);
  });

  it("skips a document with parse errors, says why, and leaves it as it is", () => {
    const broken = "::note\nnever closed\n\n\n";
    const repo = tempRepo({ "a.noma": broken, "b.noma": MESSY });
    const r = runCli(["fmt"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/skipped a\.noma: it has parse errors \(line 1: Directive "note" .* never closed/);
    expect(r.stderr).toContain("2 documents checked: 1 formatted, 0 already formatted, 1 skipped.");
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(broken);
  });

  it("outside a repository: exit 2", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.noma"), MESSY);
    const r = runCli(["fmt", "a.noma"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("fmt rewrites documents of a git repository");
  });
});

describe("fmt and transcripts", () => {
  it("records one format_document op; transcript verify --strict is clean, --base replays it byte for byte", () => {
    const repo = tempRepo({ "d.noma": MESSY });
    writeFileSync(join(repo, "base.noma"), MESSY);
    // The transcript fmt appends to, started in process (what `patch d.noma --op …` writes).
    patchInProcess(repo, "d.noma", { op: "update_attribute", id: "c1", key: "status", value: "open" });
    const r = runCli(["fmt", "d.noma"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("formatted d.noma (recorded in d.noma.patches)\n");
    const lines = readFileSync(join(repo, "d.noma.patches"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);
    const record = JSON.parse(lines[1]!);
    expect(record).toMatchObject({
      actor: { kind: "tool", name: "noma-reconcile fmt" },
      patch_result: "applied",
      op: { op: "format_document" },
      reason: "noma-reconcile fmt: canonical layout; the document means the same",
    });
    expect(record.op.edits.length).toBeGreaterThan(0);
    expect(record.post_sha256).not.toBe(record.pre_sha256);
    const strict = runCli(["transcript", "verify", "d.noma", "--strict"], { cwd: repo });
    expect(strict.code).toBe(0);
    expect(strict.stdout).toContain("2 records (2 applied), chain intact, document matches");
    const replay = runCli(["transcript", "verify", "d.noma", "--strict", "--base", "base.noma"], { cwd: repo });
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain("replay reproduces it byte for byte");
    // Formatted already: nothing more is recorded.
    expect(runCli(["fmt", "d.noma"], { cwd: repo }).stdout).toBe("");
    expect(readFileSync(join(repo, "d.noma.patches"), "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("the hook commits a formatted document and its transcript (append-only holds)", () => {
    const repo = hookRepo({ "docs/d.noma": MESSY });
    patchInProcess(repo, "docs/d.noma", { op: "update_attribute", id: "c1", key: "status", value: "open" });
    git(repo, ["add", "-A"]);
    expect(commit(repo, ["-m", "patched"]).code).toBe(0);
    expect(runCli(["fmt"], { cwd: repo }).code).toBe(0);
    git(repo, ["add", "-A"]);
    const c = commit(repo, ["-m", "fmt"]);
    expect(c.output).not.toContain("ERROR");
    expect(c.code).toBe(0);
    expect(git(repo, ["status", "--porcelain"])).toBe("");
    expect(runCli(["fmt", "--check"], { cwd: repo }).code).toBe(0);
  });

  it("patch refuses format_document: it is not a catalog op (unsupported_op), and nothing is written", () => {
    const repo = tempRepo({ "d.noma": MESSY });
    const op = JSON.stringify({ op: "format_document", edits: [{ line: 2, delete: 0, insert: "\n" }] });
    const r = runCli(["patch", "d.noma", "--op", op], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("unsupported_op");
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(MESSY);
  });

  it("the engine refuses a format_document whose edits change what the document means", () => {
    const edits = (insert: string) => ({ op: "format_document", edits: [{ line: 5, delete: 1, insert }] });
    const changed = applyPatch(MESSY, [edits("The claim, changed.\n")], { formatOps: true });
    expect(changed.result).toBe("rejected");
    expect(changed.error?.code).toBe("invalid_content");
    expect(changed.error?.message).toContain("changes what the document means");
    const layout = applyPatch(MESSY, [{ op: "format_document", edits: [{ line: 4, delete: 1, insert: "" }] }], { formatOps: true });
    expect(layout.result).toBe("applied");
    expect(applyPatch(MESSY, [{ op: "format_document", edits: [{ line: 99, delete: 1, insert: "" }] }], { formatOps: true }).error?.code).toBe(
      "invalid_content",
    );
  });

  it("waits for the document's lock, then gives up naming the holder (exit 2, nothing written)", () => {
    const repo = tempRepo({ "d.noma": MESSY });
    writeFileSync(join(repo, ".d.noma.lock"), JSON.stringify({ pid: process.pid, host: hostname(), token: "t", created: Date.now(), cmd: "the test" }));
    const r = runCli(["fmt", "d.noma", "--lock-timeout", "0"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/timed out after 0 s waiting for the lock .*\.d\.noma\.lock: held by pid/);
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(MESSY);
  });
});
