/**
 * `noma-reconcile demo` (the README's first command):
 * - builds the example repository, runs the PR check, prints the report with the one
 *   deliberate drift (refund.ts, through src/billing/**), and exits 0;
 * - removes its temp repository; --keep keeps it, and the PR check run there agrees;
 * - the demo's own files are valid: its specs validate, its document has no diagnostics.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-repo.js";

describe("demo", () => {
  it("prints the PR check's report with one deliberate drift, exits 0, and cleans up", () => {
    const tmp = tempDir();
    const r = runCli(["demo"], { cwd: tempDir(), env: { TMPDIR: tmp } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("base main (option)");
    expect(r.stdout).toContain("✓ No issues found.");
    expect(r.stdout).toContain("Drift: 1 unreconciled governed file across 1 affected spec");
    expect(r.stdout).toContain('  .notarai/billing.spec.yaml: 1 unreconciled, 3 reconciled\n    src/billing/refund.ts  via "src/billing/**" (code; modified; hash-differs)');
    expect(r.stdout).toContain("0 errors, 1 warning.");
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("--keep keeps the repository; the PR check there agrees (json)", () => {
    const tmp = tempDir();
    const kept = runCli(["demo", "--keep", "--format", "json"], { cwd: tempDir(), env: { TMPDIR: tmp } });
    expect(kept.code).toBe(0);
    const [dir] = readdirSync(tmp);
    const repo = join(tmp, dir!);
    const demo = JSON.parse(kept.stdout);
    const again = runCli(["ci", "--base", "main", "--format", "json"], { cwd: repo });
    expect(again.code).toBe(0);
    const ci = JSON.parse(again.stdout);
    expect(ci.drift.specs).toEqual(demo.drift.specs);
    expect(ci.checked).toEqual(["docs/billing.noma", "docs/billing.noma.patches"]);
    expect(runCli(["specs", "validate"], { cwd: repo }).code).toBe(0);
    expect(runCli(["transcript", "verify", "docs/billing.noma"], { cwd: repo }).code).toBe(0);
  });
});
