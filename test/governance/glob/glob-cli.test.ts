/**
 * The glob that backtracked exponentially (issue 33.1), through the real CLI in a real
 * repository: `governs`, `coverage` and `ci --base main` answer on 100-character names (they
 * never finished before). Each run is bounded by a generous kill timeout, never timed.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI } from "../../helpers/run-cli.js";
import { git, tempRepo, writeTree } from "../../helpers/temp-repo.js";
import { specYaml } from "../../reconcile/helpers/specs.js";

const GLOB = "x/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
const MISS = `x/${"a".repeat(98)}`; // 100 characters, no b: the worst case of a backtracking engine
const HIT = `x/${"a".repeat(97)}b`;

function cli(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  // A bound on a hung run (the kill shows as a null status), not a measure of time.
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", timeout: 60_000, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "" } });
  expect(r.signal).toBeNull();
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe("a glob that backtracks in a regular-expression engine, through the CLI", () => {
  it("governs, coverage and ci --base main answer on 100-character names", () => {
    const repo = tempRepo({ ".notarai/h.spec.yaml": specYaml({ artifacts: { code: [GLOB] } }), [MISS]: "one\n" });
    expect(cli(["governs", MISS], repo)).toEqual({ code: 1, stdout: `${MISS}: not governed (no spec's globs match)\n`, stderr: "" });

    git(repo, ["checkout", "-qb", "feature"]);
    writeTree(repo, { [HIT]: "two\n", [MISS]: "one more\n" });
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "change"]);

    expect(cli(["governs", HIT], repo)).toEqual({ code: 0, stdout: `${HIT}: .notarai/h.spec.yaml (code, via ${GLOB})\n`, stderr: "" });
    const coverage = cli(["coverage"], repo);
    expect(coverage.code).toBe(0);
    expect(coverage.stdout).toBe(`${MISS}\n`);
    expect(coverage.stderr).toContain("3 tracked files: 2 governed, 0 excluded, 1 uncovered");

    const ci = cli(["ci", "--base", "main", "--format", "json"], repo);
    expect(ci.code).toBe(0);
    const result = JSON.parse(ci.stdout).result as {
      changed_files: string[];
      drift: { specs: { spec_path: string; unreconciled: { path: string; glob: string }[] }[] };
    };
    expect(result.changed_files).toEqual([MISS, HIT]);
    expect(result.drift.specs.map((s) => [s.spec_path, s.unreconciled.map((f) => [f.path, f.glob])])).toEqual([[".notarai/h.spec.yaml", [[HIT, GLOB]]]]);
  });

  it("a spec glob the matcher refuses is a problem of the spec at its line: specs validate and check exit 1 naming it", () => {
    const text = `schema_version: "0.7"\nintent: x\nbehaviors:\n  - name: b\n    given: g\n    then: t\nartifacts:\n  code:\n    - path: "src/**"\n    - path: "src/(a)\\\\1"\n`;
    const repo = tempRepo({ ".notarai/b.spec.yaml": text, "src/a.ts": "x\n" });
    const message = 'artifacts.code[1].path: the glob "src/(a)\\\\1" cannot be matched in linear time (backreference \\1)';
    const validate = cli(["specs", "validate"], repo);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toBe(`.notarai/b.spec.yaml:10:13: ${message} [glob-unsupported]\n`);
    const check = cli(["check"], repo);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`ERROR [spec-glob-unsupported] .notarai/b.spec.yaml:10:13: ${message}\n`);
  });
});
