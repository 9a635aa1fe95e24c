/**
 * Spec files: schema selected by schema_version (0.5/0.6/0.7), closed objects
 * except the open ones, the behaviors rule, real dates, YAML 1.2 scalars,
 * errors naming file, YAML path, line, expected and found; $ref resolution
 * (missing target, cycles); the JSON Schema generated from zod.
 */
import { symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildSpecSet, loadSpecs, specSchemaJson, validateSpecText, type SpecProblem } from "../../src/internal.js";
import { tempRepo, writeTree } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";

const F = ".notarai/x.spec.yaml";
const problems = (text: string): SpecProblem[] => validateSpecText(F, text).problems;

describe("validateSpecText", () => {
  it("accepts a minimal valid spec of each version", () => {
    for (const version of ["0.5", "0.6", "0.7"] as const) {
      const r = validateSpecText(F, specYaml({ version }));
      expect(r.problems).toEqual([]);
      expect(r.version).toBe(version);
      expect(r.data?.schema_version).toBe(version);
    }
  });

  it("rejects an unquoted version (a YAML 1.2 number) with a hint, naming line and column", () => {
    const all = problems("intent: x\nschema_version: 0.6\nartifacts: {}\n");
    // The rest of the file is judged too, against the version it spells (issue 32.4).
    expect(all.map((r) => [r.path, r.code])).toEqual([
      ["behaviors", "missing-key"],
      ["schema_version", "bad-schema-version"],
    ]);
    const p = all[1];
    expect(p).toMatchObject({ file: F, path: "schema_version", line: 2, column: 17, code: "bad-schema-version", found: "number 0.6" });
    expect(p!.message).toContain('quote it: schema_version: "0.6"');
  });

  it("rejects unsupported and missing versions", () => {
    expect(problems('schema_version: "0.4"\nintent: x\nartifacts: {}\n').find((p) => p.path === "schema_version")).toMatchObject({
      code: "bad-schema-version",
      found: 'string "0.4"',
    });
    expect(problems("intent: x\nartifacts: {}\n").find((p) => p.path === "schema_version")).toMatchObject({ code: "missing-key", path: "schema_version" });
  });

  it("chooses the schema by version: 0.7-only fields and domains fail under 0.5/0.6", () => {
    const legal = "intent: x\nbehaviors: [{name: a, given: b, then: c}]\nartifacts: {}\ndomain: legal\n";
    expect(problems(`schema_version: "0.7"\n${legal}`)).toEqual([]);
    const p = problems(`schema_version: "0.6"\n${legal}`);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({ path: "domain", line: 5, code: "bad-value", found: 'string "legal"' });
    expect(p[0]!.expected).toContain('"software"');
    expect(
      problems('schema_version: "0.5"\nintent: x\nbehaviors: [{name: a, given: b, then: c}]\nartifacts: {code: [{path: "a", tier: 2}]}\n')[0],
    ).toMatchObject({ code: "unknown-key", path: "artifacts.code[0].tier" });
    expect(problems('schema_version: "0.5"\nintent: x\ntier: derived\nartifacts: {}\n')[0]).toMatchObject({ path: "tier", code: "bad-value" });
    expect(problems('schema_version: "0.6"\nintent: x\ntier: derived\nartifacts: {}\ncompliance: {standards: [a]}\n')[0]).toMatchObject({
      path: "compliance",
      code: "unknown-key",
    });
  });

  it("closes every nested object but artifacts, variant.overrides, theme.typography and content_section.artifacts", () => {
    const base = 'schema_version: "0.7"\nintent: x\nbehaviors: [{name: a, given: b, then: c}]\n';
    const open = `${base}artifacts: {anything: [{path: "x/**"}], slides: []}
variants: [{name: v, overrides: {whatever: [1, 2], nested: {deep: true}}}]
design: {theme: {typography: {h1: {size: 32}, any: key}}}
content: {sections: [{name: s, artifacts: {free: form}}]}
`;
    expect(problems(open)).toEqual([]);
    const closed = problems(
      `${base}artifacts: {}\nbehaviors_extra: 1\ndesign: {theme: {typo: 1}}\ncontent: {sections: [{name: s, extra: 1}]}\ncoverage: {policy: warn, level: 3}\n`,
    );
    expect(closed.map((p) => p.path)).toEqual(["behaviors_extra", "design.theme.typo", "content.sections[0].extra", "coverage.level"]);
    expect(closed.every((p) => p.code === "unknown-key")).toBe(true);
    expect(problems(`${base}artifacts: {}\nbehaviours: []\n`)[0]!.message).toContain('did you mean "behaviors"?');
  });

  it("requires a non-empty behaviors list unless tier is registered or derived", () => {
    expect(problems('schema_version: "0.7"\nintent: x\nartifacts: {}\n')[0]).toMatchObject({ path: "behaviors", code: "missing-key" });
    expect(problems('schema_version: "0.7"\nintent: x\nbehaviors: []\nartifacts: {}\n')[0]).toMatchObject({
      path: "behaviors",
      code: "out-of-range",
      line: 3,
      found: "an empty list",
    });
    expect(problems('schema_version: "0.7"\nintent: x\ntier: registered\nartifacts: {}\n')).toEqual([]);
    expect(problems('schema_version: "0.7"\nintent: x\ntier: derived\nartifacts: {}\n')).toEqual([]);
  });

  it("checks decisions' dates are real YYYY-MM-DD dates", () => {
    const spec = (date: string) => `schema_version: "0.7"\nintent: x\ntier: registered\nartifacts: {}\ndecisions:\n  - date: ${date}\n    choice: c\n`;
    expect(problems(spec("2024-02-29"))).toEqual([]);
    expect(problems(spec("2023-02-29"))[0]).toMatchObject({ path: "decisions[0].date", line: 6, column: 11, code: "bad-format", found: 'string "2023-02-29"' });
    expect(problems(spec("2024-13-01"))[0]!.code).toBe("bad-format");
  });

  it("reads YAML 1.2: `on:` is a string key (and unknown here), duplicate keys and several documents are errors", () => {
    expect(problems('schema_version: "0.7"\nintent: x\ntier: registered\nartifacts: {}\non: push\n')[0]).toMatchObject({
      path: "on",
      code: "unknown-key",
      line: 5,
    });
    // A repeated key is one problem among the file's: the rest is judged too (issue 32.4).
    expect(problems('schema_version: "0.7"\nintent: x\nintent: y\n').map((p) => [p.line, p.path, p.code])).toEqual([
      [1, "artifacts", "missing-key"],
      [1, "behaviors", "missing-key"],
      [3, "", "yaml-syntax"],
    ]);
    expect(problems('schema_version: "0.7"\n---\nintent: x\n')[0]!.code).toBe("yaml-syntax");
    expect(problems("key: [unclosed\n")[0]!.code).toBe("yaml-syntax");
  });

  it("reports a non-mapping document", () => {
    expect(problems("")[0]).toMatchObject({ code: "not-a-mapping", found: "nothing", line: 1 });
    expect(problems("- a\n- b\n")[0]).toMatchObject({ code: "not-a-mapping", found: "a list of 2" });
  });

  it("names expected and found for wrong types", () => {
    const [p] = problems('schema_version: "0.7"\nintent: 42\ntier: registered\nartifacts: {code: [{path: "a"}]}\n');
    expect(p).toMatchObject({ path: "intent", line: 2, column: 9, code: "wrong-type", expected: "a string", found: "number 42" });
  });

  it("property: a wrong-typed value under any top-level key is reported at that key's line", () => {
    const keys = ["intent", "constraints", "invariants", "open_questions", "exclude", "decisions", "applies", "coverage", "behaviors"] as const;
    fc.assert(
      fc.property(fc.shuffledSubarray([...keys], { minLength: 1 }), fc.nat(), fc.constantFrom("12", "true", "{a: 1}"), (present, pick, bad) => {
        const target = present[pick % present.length]!;
        if (target === "intent" && bad === "{a: 1}") return;
        const values: Record<string, string> = {
          intent: "some intent",
          constraints: "[c1, c2]",
          invariants: "[i1]",
          open_questions: "[q]",
          exclude: '["gen/**"]',
          decisions: "[{date: 2024-01-02, choice: c}]",
          applies: "[]",
          coverage: "{policy: warn}",
          behaviors: "[{name: n, given: g, then: t}]",
        };
        const lines = ['schema_version: "0.7"', "artifacts: {}", "tier: registered"];
        for (const k of present) lines.push(`${k}: ${k === target ? bad : values[k]}`);
        if (!present.includes("intent")) lines.push("intent: x");
        const text = `${lines.join("\n")}\n`;
        const ps = problems(text);
        const expectedLine = lines.findIndex((l) => l.startsWith(`${target}:`)) + 1;
        expect(ps.length).toBeGreaterThan(0);
        for (const p of ps) {
          expect(p.path === target || p.path.startsWith(`${target}.`) || p.path.startsWith(`${target}[`)).toBe(true);
          expect(p.line).toBe(expectedLine);
          expect(p.expected.length).toBeGreaterThan(0);
          expect(p.found.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("property: an unknown key anywhere at the root is reported on its own line", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z_]{2,12}$/), fc.nat(4), (key, at) => {
        const known = [
          "schema_version",
          "intent",
          "artifacts",
          "tier",
          "behaviors",
          "constraints",
          "invariants",
          "exclude",
          "notes",
          "domain",
          "coverage",
          "decisions",
          "applies",
          "dependencies",
          "subsystems",
          "open_questions",
          "output",
          "content",
          "states",
          "design",
          "audience",
          "variants",
          "pipeline",
          "feedback",
          "variants_resolved",
          "compliance",
        ];
        if (known.includes(key)) return;
        const lines = ['schema_version: "0.7"', "intent: x", "tier: registered", "artifacts: {}"];
        lines.splice(at, 0, `${key}: 1`);
        const ps = problems(`${lines.join("\n")}\n`);
        expect(ps).toHaveLength(1);
        expect(ps[0]).toMatchObject({ path: key, code: "unknown-key", line: at + 1, column: 1 });
      }),
      { numRuns: 100 },
    );
  });
});

describe("$ref resolution", () => {
  const spec = (refs: { applies?: string[]; deps?: string[] }) =>
    specYaml({
      extra: {
        ...(refs.applies ? { applies: refs.applies.map(($ref) => ({ $ref })) } : {}),
        ...(refs.deps ? { dependencies: refs.deps.map(($ref) => ({ $ref, relationship: "uses" })) } : {}),
      },
    });

  it("resolves refs relative to the referring spec, across subdirectories", () => {
    const set = buildSpecSet([
      validateSpecText(".notarai/a.spec.yaml", spec({ applies: ["./sub/b.spec.yaml"] })),
      validateSpecText(".notarai/sub/b.spec.yaml", spec({ deps: ["../a2.spec.yaml"] })),
      validateSpecText(".notarai/a2.spec.yaml", spec({})),
    ]);
    expect(set.problems).toEqual([]);
  });

  it("reports a missing target at the $ref's line", () => {
    const set = buildSpecSet([validateSpecText(".notarai/a.spec.yaml", spec({ applies: ["./nope.spec.yaml"] }))]);
    expect(set.problems).toHaveLength(1);
    const p = set.problems[0]!;
    expect(p).toMatchObject({ file: ".notarai/a.spec.yaml", path: "applies[0].$ref", code: "missing-ref" });
    const lines = set.files[0]!.text.split("\n");
    expect(lines[p.line - 1]).toContain("./nope.spec.yaml");
  });

  it("reports refs leaving the repository", () => {
    const set = buildSpecSet([validateSpecText(".notarai/a.spec.yaml", spec({ applies: ["../../../etc.spec.yaml"] }))]);
    expect(set.problems[0]).toMatchObject({ code: "missing-ref" });
    expect(set.problems[0]!.message).toContain("outside the repository");
  });

  it("reports cycles (including a spec referring to itself), once per cycle", () => {
    const set = buildSpecSet([
      validateSpecText(".notarai/a.spec.yaml", spec({ applies: ["./b.spec.yaml"] })),
      validateSpecText(".notarai/b.spec.yaml", spec({ deps: ["./a.spec.yaml"] })),
      validateSpecText(".notarai/c.spec.yaml", spec({ applies: ["./c.spec.yaml"] })),
    ]);
    const cycles = set.problems.filter((p) => p.code === "ref-cycle");
    expect(cycles).toHaveLength(2);
    expect(cycles.map((c) => c.found).sort()).toEqual([
      ".notarai/a.spec.yaml → .notarai/b.spec.yaml → .notarai/a.spec.yaml",
      ".notarai/c.spec.yaml → .notarai/c.spec.yaml",
    ]);
  });
});

describe("loadSpecs", () => {
  it("loads every .notarai/**/*.spec.yaml git knows (not .yml/.json, not ignored), and picks the system spec", () => {
    const root = tempRepo({
      ".notarai/system.spec.yaml": specYaml({ subsystems: ["./deep/cli.spec.yaml"] }),
      ".notarai/deep/cli.spec.yaml": specYaml(),
      ".notarai/other.spec.yml": specYaml(),
      ".notarai/data.spec.json": "{}",
      ".notarai/ignored/x.spec.yaml": specYaml(),
      ".gitignore": ".notarai/ignored/\n",
    });
    const set = loadSpecs(root);
    expect(set.files.map((f) => f.path)).toEqual([".notarai/deep/cli.spec.yaml", ".notarai/system.spec.yaml"]);
    expect(set.system?.path).toBe(".notarai/system.spec.yaml");
    expect(set.problems).toEqual([]);
  });

  it("includes untracked spec files and reports a subsystem $ref to a missing spec", () => {
    const root = tempRepo({ "README.md": "x" });
    writeTree(root, { ".notarai/system.spec.yaml": specYaml({ subsystems: ["./gone.spec.yaml"] }) });
    const set = loadSpecs(root);
    expect(set.files.map((f) => f.path)).toEqual([".notarai/system.spec.yaml"]);
    expect(set.problems.map((p) => p.code)).toEqual(["missing-ref"]);
  });

  it("a spec that cannot be looked at (a symbolic link loop) is reported with the OS error, a deleted one is not listed", () => {
    const root = tempRepo({ ".notarai/ok.spec.yaml": specYaml(), ".notarai/deleted.spec.yaml": specYaml() });
    symlinkSync("loop.spec.yaml", join(root, ".notarai/loop.spec.yaml"));
    unlinkSync(join(root, ".notarai/deleted.spec.yaml"));
    const set = loadSpecs(root);
    expect(set.files.map((f) => f.path)).toEqual([".notarai/loop.spec.yaml", ".notarai/ok.spec.yaml"]);
    expect(set.problems).toEqual([
      {
        file: ".notarai/loop.spec.yaml",
        path: "",
        line: 1,
        column: 1,
        code: "unreadable",
        expected: "a readable file of UTF-8 text",
        found: "ELOOP",
        message: "cannot be read: ELOOP: too many symbolic links encountered",
      },
    ]);
  });
});

describe("specSchemaJson", () => {
  it("is generated from zod: one branch per version, closed objects, named $defs", () => {
    const s = specSchemaJson() as {
      anyOf: Array<{ $ref: string }>;
      $defs: Record<string, { additionalProperties?: unknown; properties?: Record<string, unknown> }>;
    };
    expect(s.anyOf.map((b) => b.$ref)).toEqual(["#/$defs/spec-0.5", "#/$defs/spec-0.6", "#/$defs/spec-0.7"]);
    expect(s.$defs["spec-0.7"]!.additionalProperties).toBe(false);
    expect(s.$defs["behavior"]!.additionalProperties).toBe(false);
    expect(Object.keys(s.$defs["spec-0.7"]!.properties!)).toContain("variants_resolved");
    expect(Object.keys(s.$defs["spec-0.5"]!.properties!)).not.toContain("variants_resolved");
    const one = specSchemaJson("0.6") as { $ref: string; $defs: Record<string, { properties: Record<string, { const?: string }> }> };
    expect(one.$ref).toBe("#/$defs/spec-0.6");
    expect(one.$defs["spec-0.6"]!.properties["schema_version"]!.const).toBe("0.6");
  });
});
