/**
 * Spec files as a hostile or careless author writes them:
 * - issue 32.4: a spec with four values of the wrong type (and an unquoted `schema_version`)
 *   gets every problem reported by one `specs validate` run, each with its line and column; a
 *   repeated key does not hide the rest either. `check` on the spec agrees.
 * - issue 33.7: a spec over the size cap (1 MiB by default, NOMA_RECONCILE_MAX_SPEC_BYTES) is
 *   refused before it is parsed, by `specs validate`, `check`, `governs` and `coverage`, within
 *   the test's time bound and a 256 MB heap; raising the cap parses it; a cap set wrong is a
 *   usage error (exit 2). A configuration over its cap (NOMA_RECONCILE_MAX_CONFIG_BYTES) is an
 *   error naming it. Inputs are generated here.
 */
import { describe, expect, it } from "vitest";
import { tempRepo } from "../helpers/temp-repo.js";
import { boundedCli } from "./helpers.js";

const FOUR_WRONG = [
  "schema_version: 0.7",
  "intent: 42",
  "behaviors:",
  "  - name: b",
  "    given: [1]",
  "    then: true",
  "artifacts:",
  '  code: "src/**"',
  "",
].join("\n");

describe("specs validate reports every problem of a spec in one run (32.4)", () => {
  it("four wrong types and an unquoted version: five problems, each with its line", () => {
    const repo = tempRepo({ ".notarai/x.spec.yaml": FOUR_WRONG });
    const r = boundedCli(["specs", "validate"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n").map((l) => l.replace(/: .*\[/, " [").replace(".notarai/x.spec.yaml:", ""))).toEqual([
      "1:17 [bad-schema-version]",
      "2:9 [wrong-type]",
      "5:12 [wrong-type]",
      "6:11 [wrong-type]",
      "8:9 [wrong-type]",
      "",
    ]);
    expect(r.stderr).toBe("1 spec file checked: 1 invalid file, 5 problems.\n");
    const json = JSON.parse(boundedCli(["specs", "validate", "--format", "json"], { cwd: repo }).stdout) as {
      result: { files: Array<{ problems: Array<{ path: string; line: number; found: string }> }> };
    };
    expect(json.result.files[0]!.problems.map((p) => [p.path, p.line, p.found])).toEqual([
      ["schema_version", 1, "number 0.7"],
      ["intent", 2, "number 42"],
      ["behaviors[0].given", 5, "a list of 1"],
      ["behaviors[0].then", 6, "boolean true"],
      ["artifacts.code", 8, 'string "src/**"'],
    ]);
    const check = boundedCli(["check", ".notarai/x.spec.yaml"], { cwd: repo });
    expect(check.code).toBe(1);
    expect(check.stderr).toBe("1 file checked: 5 errors, 0 warnings.\n");
  });

  it("a repeated key is one problem among the others", () => {
    const text = 'schema_version: "0.7"\nintent: x\nintent: y\nbehaviors:\n  - name: b\n    given: g\n    then: t\n    bogus: 1\nartifacts:\n  docs: "x"\n';
    const repo = tempRepo({ ".notarai/x.spec.yaml": text });
    const r = boundedCli(["specs", "validate"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n").map((l) => l.replace(/: .*\[/, " [").replace(".notarai/x.spec.yaml:", ""))).toEqual([
      "3:1 [yaml-syntax]",
      "8:5 [unknown-key]",
      "10:9 [wrong-type]",
      "",
    ]);
  });
});

/** A valid spec of more than `bytes` bytes (a long list of artifact globs). */
function bigSpec(bytes: number): string {
  const lines = ['schema_version: "0.7"', "intent: x", "behaviors:", "  - name: b", "    given: g", "    then: t", "artifacts:", "  code:"];
  let size = lines.join("\n").length;
  for (let i = 0; size < bytes; i++) {
    const l = `    - path: "src/generated/file-${i}.ts"`;
    lines.push(l);
    size += l.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

describe("the size cap on specs and configurations (33.7)", () => {
  const bounded = { timeoutMs: 60_000, maxOldSpaceMb: 256 };

  it("a 2 MiB spec is refused, unparsed, by specs validate, check, governs and coverage", () => {
    const text = bigSpec(2 * 1024 * 1024);
    const size = Buffer.byteLength(text);
    const repo = tempRepo({ ".notarai/big.spec.yaml": text, "a.ts": "x\n" });
    const refusal = `${size} bytes, more than the 1048576 a spec file may hold (set NOMA_RECONCILE_MAX_SPEC_BYTES to raise the cap); not parsed`;

    const validate = boundedCli(["specs", "validate"], { cwd: repo, ...bounded });
    expect(validate.timedOut).toBe(false);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toBe(`.notarai/big.spec.yaml:1:1: ${refusal} [too-large]\n`);

    const check = boundedCli(["check"], { cwd: repo, ...bounded });
    expect(check.timedOut).toBe(false);
    expect(check.code).toBe(1);
    expect(check.stdout).toBe(`ERROR [spec-too-large] .notarai/big.spec.yaml:1:1: ${refusal}\n`);

    const governs = boundedCli(["governs", "a.ts"], { cwd: repo, ...bounded });
    expect(governs.timedOut).toBe(false);
    expect(governs.code).toBe(1);
    expect(governs.stderr).toContain("invalid spec .notarai/big.spec.yaml governs only its own file (run `noma-reconcile specs validate`)");

    const coverage = boundedCli(["coverage"], { cwd: repo, ...bounded });
    expect(coverage.timedOut).toBe(false);
    expect(coverage.code).toBe(0);
    expect(coverage.stdout).toBe("a.ts\n");
  });

  it("the cap is configurable: raised, the spec is parsed and valid; set wrong, exit 2 naming it", () => {
    const text = bigSpec(300_000);
    const repo = tempRepo({ ".notarai/big.spec.yaml": text });
    const lowered = boundedCli(["specs", "validate"], { cwd: repo, env: { NOMA_RECONCILE_MAX_SPEC_BYTES: "200000" } });
    expect(lowered.code).toBe(1);
    expect(lowered.stdout).toBe(
      `.notarai/big.spec.yaml:1:1: ${Buffer.byteLength(text)} bytes, more than the 200000 a spec file may hold (set NOMA_RECONCILE_MAX_SPEC_BYTES to raise the cap); not parsed [too-large]\n`,
    );
    const raised = boundedCli(["specs", "validate"], { cwd: repo, env: { NOMA_RECONCILE_MAX_SPEC_BYTES: "400000" } });
    expect(raised.code).toBe(0);
    expect(raised.stderr).toBe("1 spec file checked: 0 invalid files, 0 problems.\n");
    for (const wrong of ["0", "1MB", "-5"]) {
      const r = boundedCli(["specs", "validate"], { cwd: repo, env: { NOMA_RECONCILE_MAX_SPEC_BYTES: wrong } });
      expect(r.code, wrong).toBe(2);
      expect(r.stderr, wrong).toContain(
        `NOMA_RECONCILE_MAX_SPEC_BYTES=${JSON.stringify(wrong)}: expected a whole number of bytes, at least 1 (e.g. NOMA_RECONCILE_MAX_SPEC_BYTES=4194304 for 4 MiB)`,
      );
    }
  });

  it("a configuration over its cap is an error naming it (exit 2); raised, it is read", () => {
    // Valid YAML, a little over 1 MiB of comments before one setting.
    const config = `${`# ${"x".repeat(98)}\n`.repeat(11_000)}transcripts: warn\n`;
    const repo = tempRepo({ "a.noma": '::note{id="a"}\n::\n', ".notarai/config.yaml": config });
    const r = boundedCli(["check"], { cwd: repo, ...bounded });
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `.notarai/config.yaml: ${Buffer.byteLength(config)} bytes, over the limit of 1048576 bytes for this kind of file (set NOMA_RECONCILE_MAX_CONFIG_BYTES to raise the cap)`,
    );
    const raised = boundedCli(["check"], { cwd: repo, env: { NOMA_RECONCILE_MAX_CONFIG_BYTES: String(2 * 1024 * 1024) } });
    expect(raised.code).toBe(0);
  });
});
