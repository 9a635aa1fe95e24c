/**
 * `schema config` and `schema norma-config`: the JSON Schemas of `.notarai/config.yaml`
 * and `.norma/config.json` name exactly the keys their validators know, and agree with
 * the validators on what is valid (a property over generated files, the printed schema
 * read back with zod's JSON Schema reader); both validators accept `$schema`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { AGENT_TYPES, CONFIG_KEYS, parseConfig, parseRunConfig, ROLES, RUN_CONFIG_KEYS, WORKSPACE_KEYS } from "../../src/internal.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

type Json = Record<string, unknown> & { properties: Record<string, Json>; $defs?: Record<string, Json> };
const printed = (name: string): Json => {
  const r = runCli(["schema", name], { cwd: tempDir() });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Json;
};
const keys = (o: object): string[] => Object.keys(o).sort();

describe("schemas/ in the package", () => {
  it("holds what schema config and schema norma-config print (node scripts/generate-schemas.mjs regenerates them)", () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    expect(readFileSync(join(root, "schemas/config.schema.json"), "utf8")).toBe(runCli(["schema", "config"], { cwd: root }).stdout);
    expect(readFileSync(join(root, "schemas/norma-config.schema.json"), "utf8")).toBe(runCli(["schema", "norma-config"], { cwd: root }).stdout);
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain("schemas");
  });
});

describe(".notarai/config.yaml: schema config", () => {
  const schema = printed("config");
  const check = z.fromJSONSchema(schema as never);

  it("has exactly the validator's keys (and $schema), each described", () => {
    expect(keys(schema.properties)).toEqual(["$schema", ...CONFIG_KEYS].sort());
    expect(keys(schema.properties["workspace"]!.properties)).toEqual([...WORKSPACE_KEYS].sort());
    for (const [k, p] of Object.entries(schema.properties)) expect(typeof p["description"], k).toBe("string");
    expect(schema["additionalProperties"]).toBe(false);
    expect(schema["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("accepts a file exactly when parseConfig reports no problem (unknown keys are its warnings)", () => {
    const value = fc.oneof(
      fc.constantFrom("warn", "strict", "warning", "error", "", "x"),
      fc.integer({ min: -5, max: 4000 }),
      fc.boolean(),
      fc.array(fc.constantFrom("npm", "test", "", "docs/**")),
      fc.constant(null),
    );
    const workspace = fc.dictionary(fc.constantFrom(...WORKSPACE_KEYS, "bogus"), value);
    const config = fc.dictionary(fc.constantFrom(...CONFIG_KEYS, "$schema", "lock-timeout"), fc.oneof(value, workspace));
    fc.assert(
      fc.property(config, (c) => {
        const problems = parseConfig(JSON.stringify(c), "config.yaml").problems;
        expect(check.safeParse(c).success, `${JSON.stringify(c)}: ${problems.map((p) => p.message).join("; ")}`).toBe(problems.length === 0);
      }),
      { numRuns: 400 },
    );
  });

  it("$schema and the yaml-language-server comment are accepted by check (no warning)", () => {
    const repo = tempRepo({
      ".notarai/config.yaml": "# yaml-language-server: $schema=./config.schema.json\n$schema: ./config.schema.json\ntranscripts: strict\n",
      "a.noma": "# A\n",
    });
    const r = runCli(["check"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("config.yaml");
    writeFileSync(join(repo, ".notarai/config.yaml"), "$schemas: x\n");
    expect(runCli(["check"], { cwd: repo }).stderr).toContain('unknown key "$schemas"');
  });
});

describe(".norma/config.json: schema norma-config", () => {
  const schema = printed("norma-config");
  const check = z.fromJSONSchema(schema as never);
  const root = tempDir();

  it("has exactly the validator's keys (and $schema), its roles and its agent types", () => {
    expect(keys(schema.properties)).toEqual(["$schema", ...RUN_CONFIG_KEYS].sort());
    expect(keys(schema.properties["agents"]!.properties)).toEqual([...ROLES].sort());
    expect(keys(schema.$defs!)).toEqual(AGENT_TYPES.map((t) => `agent-${t}`).sort());
    expect(keys(schema.properties["budgets"]!.properties)).toEqual([
      "max_changed_files",
      "max_iterations",
      "max_patch_kb",
      "max_risky_files",
      "max_stalled_iterations",
    ]);
  });

  it("accepts a file exactly when parseRunConfig does", () => {
    const str = fc.constantFrom("./bin/agent", "", "sub", "sonnet");
    const agent = fc.record(
      {
        type: fc.constantFrom(...AGENT_TYPES, "nope"),
        cmd: fc.array(str, { maxLength: 2 }),
        model: str,
        path: str,
        timeout_ms: fc.constantFrom(1000, 0, -1, 1.5),
        env: fc.array(fc.constantFrom("MY_TOKEN", "1BAD"), { maxLength: 2 }),
        args: fc.array(str, { maxLength: 2 }),
        extra: fc.boolean(),
      },
      { requiredKeys: ["type"] },
    );
    const budgets = fc.dictionary(
      fc.constantFrom("max_iterations", "max_patch_kb", "max_changed_files", "max_risky_files", "max_steps"),
      fc.constantFrom(0, 1, 5, 2000, 1.5, -1),
    );
    const file = fc.record(
      {
        $schema: fc.constantFrom("./norma-config.schema.json", 1),
        agents: fc.dictionary(fc.constantFrom(...ROLES, "review"), agent, { maxKeys: 3 }),
        budgets,
        risky: fc.array(fc.constantFrom(".github/**", ""), { maxLength: 2 }),
        other: fc.constant(1),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(file, (f) => {
        const r = parseRunConfig(JSON.stringify(f), root);
        expect(check.safeParse(f).success, `${JSON.stringify(f)}: ${r.problems.join("; ")}`).toBe(r.config !== null);
      }),
      { numRuns: 400 },
    );
  });

  it("$schema is accepted", () => {
    expect(parseRunConfig(JSON.stringify({ $schema: "x", agents: { check: { type: "builtin" } } }), root).problems).toEqual([]);
  });
});
