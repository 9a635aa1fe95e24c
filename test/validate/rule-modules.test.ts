/**
 * The validator's rules live one module (or one group of related rules) each in
 * src/validate/rules/, run in order by validate-noma.ts. Together they report every code of
 * the rule catalog, each code from one module only, and the entry runs every one of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RULE_READS, RULES } from "../../src/validate/rule-catalog.js";

const VALIDATE = fileURLToPath(new URL("../../src/validate", import.meta.url));
const RULES_DIR = join(VALIDATE, "rules");
const modules = readdirSync(RULES_DIR)
  .filter((f) => f.endsWith(".ts"))
  .sort();
const source = (file: string): string => readFileSync(file, "utf8");

/** The codes a source file reports: the first argument of each `.report(` call. */
const reported = (text: string): string[] => [...text.matchAll(/\.report\(\s*"([a-z-]+)"/g)].map((m) => m[1]!);

describe("the validator's rule modules", () => {
  it("report every code of the catalog, each from one module only", () => {
    const owners = new Map<string, Set<string>>();
    const own = (code: string, module: string): void => {
      if (!owners.has(code)) owners.set(code, new Set());
      owners.get(code)!.add(module);
    };
    for (const m of modules) for (const code of reported(source(join(RULES_DIR, m)))) own(code, m);
    // The parse's own problems come through one rule, unknown-ignore-rule from the entry.
    for (const [code, reads] of Object.entries(RULE_READS)) if (reads === "parse") own(code, "parse-problems.ts");
    expect(source(join(VALIDATE, "validate-noma.ts"))).toContain('code: "unknown-ignore-rule"');
    own("unknown-ignore-rule", "validate-noma.ts");

    expect([...owners.keys()].sort()).toEqual(Object.keys(RULES).sort());
    const shared = [...owners].filter(([, m]) => m.size > 1).map(([code, m]) => `${code}: ${[...m].join(", ")}`);
    expect(shared).toEqual([]);
    expect(owners.get("broken-reference")).toEqual(new Set(["broken-references.ts"]));
    expect(owners.get("stale-citation")).toEqual(new Set(["stale-citations.ts"]));
  });

  it("are each run by validate-noma.ts (the one-directive checks through directive-checks.ts)", () => {
    const imported = [...source(join(VALIDATE, "validate-noma.ts")).matchAll(/from "\.\/rules\/([a-z-]+)\.js"/g)].map((m) => `${m[1]}.ts`);
    expect(source(join(RULES_DIR, "directive-checks.ts"))).toContain('from "./check-directive.js"');
    expect([...imported, "check-directive.ts"].sort()).toEqual(modules);
  });
});
