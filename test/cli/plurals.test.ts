/**
 * Counts read right: "1 error", "2 errors", "1 warning", "1 file" in check's summary (the
 * pre-commit hook's too) and in the GitHub step summary; "1 body row" in a patch rejection;
 * "1 fixture" in verify's (test/cli/verify.test.ts); "1 record" in transcript verify's.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";

const BROKEN = '# Doc\n\n::evidence{id="e" for="nope"}\nx\n::\n';
const TWO_BROKEN = '# Doc\n\n::evidence{id="e" for="nope"}\nx\n::\n\n::evidence{id="f" for="gone"}\ny\n::\n';
const WARNS = '::risk{id="r"}\nno owner\n::\n';

describe("plurals", () => {
  it("check says 1 file, 1 error, 1 warning and 2 errors", () => {
    const repo = tempRepo({ "one.noma": BROKEN, "two.noma": TWO_BROKEN, "warn.noma": WARNS });
    expect(runCli(["check", "one.noma"], { cwd: repo }).stderr).toContain("1 file checked: 1 error, 0 warnings.");
    expect(runCli(["check", "two.noma"], { cwd: repo }).stderr).toContain("1 file checked: 2 errors, 0 warnings.");
    expect(runCli(["check", "warn.noma"], { cwd: repo }).stderr).toContain("1 file checked: 0 errors, 1 warning.");
  });

  it("the pre-commit check (check --staged) too", () => {
    const repo = tempRepo({ "ok.noma": "# Ok\n\nFine.\n" });
    git(repo, ["add", "."]);
    const r0 = runCli(["check", "--staged"], { cwd: repo });
    expect(r0.code).toBe(0);
    writeFileSync(join(repo, "one.noma"), BROKEN);
    git(repo, ["add", "one.noma"]);
    const r = runCli(["check", "--staged"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("1 file checked (staged): 1 error, 0 warnings.");
  });

  it("the GitHub step summary", () => {
    const repo = tempRepo({ "one.noma": BROKEN });
    const summary = join(tempDir("nr-plural-"), "summary.md");
    runCli(["check", "one.noma", "--format", "github"], { cwd: repo, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(readFileSync(summary, "utf8")).toContain("1 error, 0 warnings, 0 notes in 1 file.");
  });

  it("a patch rejection: 1 body row", () => {
    const repo = tempRepo({ "a.noma": '# Doc\n\n::table{id="t" header}\nName | N\nAna | 1\n::\n' });
    const r = runCli(["patch", "a.noma", "--dry-run", "--op", '{"op":"insert_table_column","id":"t","column":2,"header":"X","cells":["a","b"]}'], {
      cwd: repo,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('2 cells given, but table "t" has 1 body row;');
  });

  it("transcript verify: 1 record, 2 records", () => {
    const repo = tempRepo({ "a.noma": '::claim{id="c" confidence=0.5}\nA claim.\n::\n' });
    const op = (value: number) => JSON.stringify({ op: "update_attribute", id: "c", key: "confidence", value });
    expect(runCli(["patch", "a.noma", "--op", op(0.6)], { cwd: repo }).code).toBe(0);
    expect(runCli(["transcript", "verify", "a.noma"], { cwd: repo }).stdout).toBe("✓ a.noma.patches: 1 record (1 applied), chain intact, document matches.\n");
    expect(runCli(["patch", "a.noma", "--op", op(0.7)], { cwd: repo }).code).toBe(0);
    expect(runCli(["transcript", "verify", "a.noma"], { cwd: repo }).stdout).toBe("✓ a.noma.patches: 2 records (2 applied), chain intact, document matches.\n");
  });
});
