/**
 * "Billion laughs": YAML aliases that expand exponentially. Every YAML file we
 * read — the configuration (`check`, `check --staged`, `ci`), specs, capability
 * sidecars (`check`, `patch`), document frontmatter — answers with a clean
 * error naming file and line, never an internal error.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { parseConfig } from "../../src/config/parse-config.js";
import { readCapabilities } from "../../src/capability/read-capabilities.js";
import { validateSpecText } from "../../src/governance/validate-spec-text.js";

/** Nine levels of nine aliases each (9^9 "lol"s if expanded), anchors from line 1; the first alias on line 2. */
function laughs(levels = 9): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(",")}]`);
  return `${lines.join("\n")}\n`;
}

const DOC = "# T\n\nText.\n";

describe("a billion-laughs .notarai/config.yaml", () => {
  it("check, check --staged and ci: a configuration error (exit 2) naming file and line", () => {
    const repo = tempRepo({ "a.noma": DOC });
    git(repo, ["checkout", "-qb", "feature"]);
    mkdirSync(join(repo, ".notarai"));
    writeFileSync(join(repo, ".notarai/config.yaml"), `${laughs()}transcripts: *a9\n`);
    writeFileSync(join(repo, "a.noma"), `${DOC}More.\n`);
    git(repo, ["add", ".notarai/config.yaml", "a.noma"]);
    for (const args of [["check"], ["check", "--staged"]]) {
      const r = runCli(args, { cwd: repo });
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/\.notarai\/config\.yaml:2:\d+: error: .*alias/);
      expect(r.stderr).not.toMatch(/internal error|ReferenceError/);
    }
    git(repo, ["commit", "-qm", "bomb", "--no-verify"]);
    const ci = runCli(["ci", "--base", "main"], { cwd: repo });
    expect(ci.code, ci.stderr).toBe(2);
    expect(ci.stderr).toMatch(/\.notarai\/config\.yaml:2:\d+: error: .*alias/);
    expect(ci.stderr).not.toMatch(/internal error|ReferenceError/);
  });

  it("parseConfig: any alias-heavy text is an error with a position, never a throw", () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 12 }), fc.constantFrom("transcripts", "exclude", "drift", "workspace"), (levels, key) => {
        const r = parseConfig(`${laughs(levels)}${key}: *a${levels}\n`, ".notarai/config.yaml");
        const errors = r.problems.filter((p) => p.severity === "error");
        expect(errors.length).toBeGreaterThan(0);
        expect(errors[0]!.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 30 },
    );
    // A few aliases are fine.
    expect(parseConfig('base: &x ["a/**"]\nexclude: *x\n', "c.yaml").config.exclude).toEqual(["a/**"]);
  });
});

describe("specs and sidecars", () => {
  it("a billion-laughs spec is a yaml problem at the first alias's line", () => {
    const spec = validateSpecText(".notarai/x.spec.yaml", `${laughs()}schema_version: "0.7"\nintent: *a9\nbehaviors: []\nartifacts: {}\n`);
    expect(spec.problems[0]).toMatchObject({ code: "yaml-syntax", line: 2 });
    expect(spec.problems[0]!.message).toMatch(/alias/);
  });

  it("a billion-laughs capability sidecar: check reports it at its line, patch still patches (the sidecar grants nothing)", () => {
    const repo = tempRepo({ "d.noma": '::claim{id="c1" confidence=0.5}\nBody.\n::\n', "d.noma.capabilities.yml": `${laughs()}nomaAgent: *a9\n` });
    const r = runCli(["check", "d.noma.capabilities.yml"], { cwd: repo });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/ERROR \[capability-invalid\] d\.noma\.capabilities\.yml:2\b.*alias/);
    expect(r.stderr).not.toMatch(/internal error|ReferenceError/);
    const p = runCli(["patch", "d.noma", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}'], { cwd: repo });
    expect(p.code, p.stdout + p.stderr).toBe(0);
    expect(p.stderr).not.toMatch(/internal error|ReferenceError/);
    expect(readCapabilities(`${laughs()}nomaAgent: *a9\n`).problems[0]).toMatchObject({ code: "capability-invalid", line: 2 });
  });

  it("a billion-laughs frontmatter is an invalid-frontmatter error", () => {
    const repo = tempRepo({ "d.noma": `---\n${laughs()}title: *a9\n---\n# T\n` });
    const r = runCli(["check", "d.noma"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/invalid-frontmatter/);
  });
});
