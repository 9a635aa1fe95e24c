/**
 * The pre-commit hook, through real `git commit`s in temp repositories:
 * - a valid commit passes; an invalid document, a tampered transcript line, a
 *   document edited outside the protocol under `transcripts: strict`, an invalid
 *   spec and a broken $ref are each blocked, naming file and line;
 * - the index is judged, not the work tree: partial staging both ways;
 *   `git commit -a` and `git commit <path>` (temporary GIT_INDEX_FILE);
 * - a judged path staged as a symbolic link (added, or a type change) is blocked;
 * - the skip switch and `exclude` in .notarai/config.yaml;
 * - the check changes nothing on disk (work tree, index, no cache, no snapshot).
 */
import { existsSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.js";
import { git, tempDir, writeTree } from "../../helpers/temp-repo.js";
import { commit, hookRepo } from "./hook-repo.js";
import { BAD_SPEC, BROKEN, CLAIM, editLine, patch, SPEC, VALID } from "./fixtures.js";

const head = (repo: string): string => git(repo, ["rev-parse", "HEAD"]).trim();

describe("pre-commit hook: blocks what is invalid", () => {
  it("a valid commit passes and the hook says nothing on stdout", () => {
    const repo = hookRepo({ "a.noma": VALID });
    writeTree(repo, { "b.noma": VALID, "src/x.ts": "x\n" });
    git(repo, ["add", "."]);
    const before = head(repo);
    const r = commit(repo, ["-m", "valid"]);
    expect(r.code).toBe(0);
    expect(head(repo)).not.toBe(before);
    expect(r.output).toContain("✓ No issues found.");
  });

  it("an invalid document is blocked with file:line", () => {
    const repo = hookRepo({ "a.noma": VALID });
    writeTree(repo, { "docs/b.noma": BROKEN });
    git(repo, ["add", "."]);
    const before = head(repo);
    const r = commit(repo, ["-m", "broken"]);
    expect(r.code).toBe(1);
    expect(r.output).toContain("ERROR [broken-reference] docs/b.noma:3:1:");
    expect(r.output).toContain("Commit blocked");
    expect(head(repo)).toBe(before);
  });

  it("a tampered transcript line is blocked, naming the transcript and the line", () => {
    const repo = hookRepo({ "docs/plan.noma": CLAIM });
    patch(repo, "docs/plan.noma", [0.6, 0.7]);
    git(repo, ["add", "."]);
    expect(commit(repo, ["-m", "two patches"]).code).toBe(0);
    editLine(repo, "docs/plan.noma.patches", 1, '"value":0.6', '"value":0.65');
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "tampered"]);
    expect(r.code).toBe(1);
    expect(r.output).toContain("ERROR [transcript-seal-broken] docs/plan.noma.patches:1:1:");
    expect(r.output).toContain("ERROR [transcript-chain-broken] docs/plan.noma.patches:2:1:");
  });

  it("a document edited outside the protocol: a warning by default, blocked under transcripts: strict", () => {
    const repo = hookRepo({ "docs/plan.noma": CLAIM });
    patch(repo, "docs/plan.noma", [0.6]);
    git(repo, ["add", "."]);
    expect(commit(repo, ["-m", "patched"]).code).toBe(0);
    writeFileSync(join(repo, "docs/plan.noma"), CLAIM.replace("A claim.", "A hand-edited claim."));
    git(repo, ["add", "."]);
    const warn = commit(repo, ["-m", "hand edit"]);
    expect(warn.code).toBe(0);
    expect(warn.output).toContain("WARNING [transcript-document-mismatch] docs/plan.noma.patches:1:1: docs/plan.noma: The document");

    writeFileSync(join(repo, "docs/plan.noma"), CLAIM.replace("A claim.", "Edited again."));
    writeTree(repo, { ".notarai/config.yaml": "transcripts: strict\n" });
    git(repo, ["add", "."]);
    const before = head(repo);
    const strict = commit(repo, ["-m", "hand edit under strict"]);
    expect(strict.code).toBe(1);
    expect(strict.output).toContain("ERROR [transcript-document-mismatch] docs/plan.noma.patches:1:1:");
    expect(head(repo)).toBe(before);
  });

  it("an invalid spec is blocked at its line; a deleted spec that another spec $refs is blocked at the $ref", () => {
    const repo = hookRepo({ ".notarai/api.spec.yaml": SPEC, "src/a.ts": "a\n" });
    writeTree(repo, { ".notarai/bad.spec.yaml": BAD_SPEC });
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "bad spec"]);
    expect(r.code).toBe(1);
    expect(r.output).toMatch(/ERROR \[spec-unknown-key\] \.notarai\/bad\.spec\.yaml:3:1: behavior: unknown key "behavior"/);

    git(repo, ["rm", "-q", "--cached", ".notarai/bad.spec.yaml"]);
    writeTree(repo, { ".notarai/system.spec.yaml": `${SPEC.replace('intent: "The API"', 'intent: "All"')}subsystems:\n  - $ref: ./api.spec.yaml\n` });
    git(repo, ["add", ".notarai/system.spec.yaml"]);
    expect(commit(repo, ["-m", "system spec"]).code).toBe(0);
    git(repo, ["rm", "-q", ".notarai/api.spec.yaml"]);
    const gone = commit(repo, ["-m", "remove api spec"]);
    expect(gone.code).toBe(1);
    expect(gone.output).toMatch(/ERROR \[spec-missing-ref\] \.notarai\/system\.spec\.yaml:13:11: subsystems\[0\]\.\$ref:/);
  });
});

describe("pre-commit hook: symbolic links", () => {
  it("a document staged as a symbolic link is blocked (file-unreadable), added as a link or a file become one", () => {
    const repo = hookRepo({ "docs/a.noma": VALID, "docs/b.noma": VALID });
    const before = head(repo);
    symlinkSync("/etc/hostname", join(repo, "docs/out.noma"));
    git(repo, ["add", "docs/out.noma"]);
    const added = commit(repo, ["-m", "a link out"]);
    expect(added.code, added.output).toBe(1);
    expect(added.output).toContain('ERROR [file-unreadable] docs/out.noma: Staged as a symbolic link to "/etc/hostname", not a regular file');
    git(repo, ["rm", "-q", "--cached", "docs/out.noma"]);

    // A type change alone (git diff's T): the hook's question to git and the check both see it.
    rmSync(join(repo, "docs/a.noma"));
    symlinkSync("b.noma", join(repo, "docs/a.noma"));
    git(repo, ["add", "docs/a.noma"]);
    expect(git(repo, ["diff", "--cached", "--name-status"])).toBe("T\tdocs/a.noma\n");
    const changed = commit(repo, ["-m", "a file become a link"]);
    expect(changed.code, changed.output).toBe(1);
    expect(changed.output).toContain('ERROR [file-unreadable] docs/a.noma: Staged as a symbolic link to "b.noma", not a regular file');
    expect(head(repo)).toBe(before);
  });
});

describe("pre-commit hook: judges the index", () => {
  it("a partially staged file is judged by its staged content, both ways", () => {
    const repo = hookRepo({ "a.noma": VALID });
    writeTree(repo, { "a.noma": BROKEN });
    git(repo, ["add", "a.noma"]);
    writeTree(repo, { "a.noma": VALID }); // fixed in the work tree only
    const blocked = commit(repo, ["-m", "staged broken"]);
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain("a.noma:3:1:");

    writeTree(repo, { "a.noma": `${VALID}\nMore.\n` });
    git(repo, ["add", "a.noma"]);
    writeTree(repo, { "a.noma": BROKEN }); // broken in the work tree only
    expect(commit(repo, ["-m", "staged valid"]).code).toBe(0);
    expect(git(repo, ["show", "HEAD:a.noma"])).toBe(`${VALID}\nMore.\n`);
  });

  it("git commit -a judges the work tree's tracked changes (temporary index)", () => {
    const repo = hookRepo({ "a.noma": VALID });
    writeTree(repo, { "a.noma": BROKEN });
    const r = commit(repo, ["-a", "-m", "all"]);
    expect(r.code).toBe(1);
    expect(r.output).toContain("a.noma:3:1:");
    writeTree(repo, { "a.noma": `${VALID}\nok\n` });
    expect(commit(repo, ["-a", "-m", "all valid"]).code).toBe(0);
  });

  it("git commit <path> judges only that path, not what else is staged", () => {
    const repo = hookRepo({ "a.noma": VALID, "b.noma": VALID });
    writeTree(repo, { "b.noma": BROKEN });
    git(repo, ["add", "b.noma"]); // broken b staged in the real index
    writeTree(repo, { "a.noma": `${VALID}\nchanged\n` });
    const onlyA = commit(repo, ["-m", "only a", "--", "a.noma"]);
    expect(onlyA.code).toBe(0);
    expect(git(repo, ["show", "HEAD:b.noma"])).toBe(VALID);
    const onlyB = commit(repo, ["-m", "only b", "--", "b.noma"]);
    expect(onlyB.code).toBe(1);
    expect(onlyB.output).toContain("b.noma:3:1:");
  });
});

describe("pre-commit hook: switches", () => {
  it("NOMA_RECONCILE_SKIP=1 skips the check; --no-verify bypasses the hook", () => {
    const repo = hookRepo({ "a.noma": VALID });
    writeTree(repo, { "a.noma": BROKEN });
    git(repo, ["add", "."]);
    const skipped = commit(repo, ["-m", "skip"], { NOMA_RECONCILE_SKIP: "1" });
    expect(skipped.code).toBe(0);
    expect(skipped.output).toContain("NOMA_RECONCILE_SKIP is set");
    writeTree(repo, { "b.noma": BROKEN });
    git(repo, ["add", "."]);
    expect(commit(repo, ["--no-verify", "-m", "no verify"]).code).toBe(0);
  });

  it("exclude in .notarai/config.yaml leaves deliberately invalid fixtures alone", () => {
    const repo = hookRepo({ ".notarai/config.yaml": "exclude:\n  - fixtures/invalid/**\n" });
    writeTree(repo, { "fixtures/invalid/x.noma": BROKEN, "docs/y.noma": VALID });
    git(repo, ["add", "."]);
    expect(commit(repo, ["-m", "fixtures"]).code).toBe(0);
  });

  it("an invalid configuration blocks with exit 2, naming file and line", () => {
    const repo = hookRepo({ "a.noma": VALID });
    writeTree(repo, { ".notarai/config.yaml": "drift: warning\ntranscripts: sometimes\n" });
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "config"]);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('.notarai/config.yaml:2:14: error: transcripts: expected one of "warn", "strict", found "sometimes"');
  });
});

function snapshotDisk(repo: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(repo, rel), { withFileTypes: true })) {
      const child = rel.length > 0 ? `${rel}/${e.name}` : e.name;
      if (child === ".git/logs" || child === "node_modules") continue;
      if (e.isDirectory()) walk(child);
      else if (e.isFile()) out.set(child, `${statSync(join(repo, child)).mtimeMs}:${readFileSync(join(repo, child)).toString("base64")}`);
    }
  };
  walk("");
  return out;
}

describe("check --staged is read-only", () => {
  it("changes no byte of the work tree, the index or .git, and creates no cache or snapshot", () => {
    const repo = hookRepo({ ".notarai/api.spec.yaml": SPEC, "docs/plan.noma": CLAIM, "src/a.ts": "a\n" });
    patch(repo, "docs/plan.noma", [0.6]);
    writeTree(repo, { "docs/b.noma": BROKEN, ".notarai/bad.spec.yaml": BAD_SPEC, "src/a.ts": "a2\n" });
    git(repo, ["add", "."]);
    writeTree(repo, { "docs/b.noma": VALID });
    const before = snapshotDisk(repo);
    for (const format of ["text", "json", "sarif", "github"]) {
      const r = runCli(["check", "--staged", "--format", format], { cwd: join(repo, "docs") });
      expect(r.code).toBe(1);
      if (format === "json") {
        const files = (JSON.parse(r.stdout).result as { files: Array<{ file: string; diagnostics: Array<{ code: string }> }> }).files;
        expect(Object.fromEntries(files.map((f) => [f.file, f.diagnostics.map((d) => d.code)]))).toEqual({
          ".notarai/bad.spec.yaml": ["spec-missing-key", "spec-unknown-key"],
          "docs/b.noma": ["broken-reference"],
          "docs/plan.noma": [],
          "docs/plan.noma.patches": [],
        });
      }
    }
    expect(snapshotDisk(repo)).toEqual(before);
    expect(existsSync(join(repo, ".notarai/.cache"))).toBe(false);
    expect(existsSync(join(repo, ".notarai/reconciliation_state.json"))).toBe(false);
  });

  it("with nothing relevant staged it exits 0 at once; --staged takes no paths; outside a repository exits 2", () => {
    const repo = hookRepo({ "a.noma": VALID });
    writeTree(repo, { "src/x.ts": "x\n", "a.noma": BROKEN });
    git(repo, ["add", "src/x.ts"]);
    const r = runCli(["check", "--staged"], { cwd: repo });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(r.stderr).toContain("nothing staged to check");
    expect(runCli(["check", "--staged", "a.noma"], { cwd: repo }).code).toBe(2);
    const json = runCli(["check", "--staged", "--format", "json"], { cwd: repo });
    expect(JSON.parse(json.stdout)).toMatchObject({ schema: "noma-reconcile/check@2", command: "check", ok: true, result: { staged: true, files: [] } });
    const outside = runCli(["check", "--staged"], { cwd: tempDir() });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("--staged needs a git repository");
  });
});
