/**
 * Plain `check` (the work tree) judges what the hook judges:
 * - transcripts beside their documents (a tampered line, a hand edit: warning, error under strict);
 * - spec files (schema, $refs), reported at their line;
 * - `exclude` in .notarai/config.yaml (an explicit file argument is still judged); --config overrides;
 * - an invalid configuration exits 2 naming file and line.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo, writeTree } from "../helpers/temp-repo.js";
import { BAD_SPEC, BROKEN, CLAIM, editLine, patch, SPEC, VALID } from "./staged/fixtures.js";

describe("check on the work tree", () => {
  it("verifies each document's transcript: tampering is an error, a hand edit a warning (error under strict)", () => {
    const repo = tempRepo({ "docs/plan.noma": CLAIM });
    patch(repo, "docs/plan.noma", [0.6, 0.7]);
    const clean = runCli(["check", "docs/plan.noma"], { cwd: repo });
    expect(clean).toMatchObject({ code: 0, stdout: "✓ No issues found.\n" });
    expect(clean.stderr).toContain("2 files checked");

    editLine(repo, "docs/plan.noma.patches", 2, '"value":0.7', '"value":0.75');
    const tampered = runCli(["check", "docs"], { cwd: repo });
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain("ERROR [transcript-seal-broken] docs/plan.noma.patches:2:1:");

    const repo2 = tempRepo({ "docs/plan.noma": CLAIM });
    patch(repo2, "docs/plan.noma", [0.6]);
    writeTree(repo2, { "docs/plan.noma": CLAIM.replace("A claim.", "Edited by hand.") });
    const warn = runCli(["check", "docs/plan.noma"], { cwd: repo2 });
    expect(warn.code).toBe(0);
    expect(warn.stdout).toContain("WARNING [transcript-document-mismatch] docs/plan.noma.patches:1:1: docs/plan.noma: The document");
    writeTree(repo2, { ".notarai/config.yaml": "transcripts: strict\n" });
    expect(runCli(["check", "docs/plan.noma"], { cwd: repo2 }).code).toBe(1);
  });

  it("validates tracked specs and their $refs", () => {
    const repo = tempRepo({
      ".notarai/api.spec.yaml": SPEC,
      ".notarai/bad.spec.yaml": BAD_SPEC,
      ".notarai/sys.spec.yaml": `${SPEC}subsystems:\n  - $ref: ./missing.spec.yaml\n`,
    });
    const r = runCli(["check", "--format", "json"], { cwd: repo });
    expect(r.code).toBe(1);
    const files = (JSON.parse(r.stdout).result as { files: Array<{ file: string; diagnostics: Array<{ code: string; pos?: { line: number } }> }> }).files;
    expect(files.map((f) => [f.file, f.diagnostics.map((d) => `${d.code}@${d.pos?.line}`)])).toEqual([
      [".notarai/api.spec.yaml", []],
      [".notarai/bad.spec.yaml", ["spec-missing-key@1", "spec-unknown-key@3"]],
      [".notarai/sys.spec.yaml", ["spec-missing-ref@13"]],
    ]);
  });

  it("exclude leaves files out unless named explicitly; --config overrides the repository's file", () => {
    const repo = tempRepo({ ".notarai/config.yaml": 'exclude: ["fixtures/**"]\n', "fixtures/bad.noma": BROKEN, "docs/ok.noma": VALID });
    expect(runCli(["check"], { cwd: repo })).toMatchObject({ code: 0, stdout: "✓ No issues found.\n" });
    expect(runCli(["check", "fixtures"], { cwd: repo }).code).toBe(0);
    expect(runCli(["check", "fixtures/bad.noma"], { cwd: repo }).code).toBe(1);
    const other = join(tempDir(), "other.yaml");
    writeFileSync(other, "exclude: []\n");
    expect(runCli(["check", "--config", other], { cwd: repo }).code).toBe(1);
  });

  it("an invalid configuration exits 2, naming file and line; unknown keys only warn", () => {
    const repo = tempRepo({ ".notarai/config.yaml": "drift: loud\n", "a.noma": VALID });
    const r = runCli(["check"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.notarai/config.yaml:1:8: error: drift: expected one of "warning", "error", found "loud"');
    writeTree(repo, { ".notarai/config.yaml": "trancripts: strict\n" });
    const w = runCli(["check"], { cwd: repo });
    expect(w.code).toBe(0);
    expect(w.stderr).toContain('.notarai/config.yaml:1:1: warning: unknown key "trancripts" (did you mean "transcripts"?)');
  });
});
