/**
 * The command allowlist (pure): TOML parsing with file/line errors, argument
 * patterns (`*`, escapes) against a regular-expression reference, full-argv matching
 * with `**`, environment key rules. Property tests: the parser never throws on any
 * text; a record always admits the argv it names literally and nothing of another
 * length; pattern matching agrees with the reference.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { stringify } from "smol-toml";
import { describe, expect, it } from "vitest";
import { matchArgPattern, parseArgPattern, PatternSyntaxError } from "../../src/workspace/arg-pattern.js";
import { matchAllowlist, recordMatches, refusedEnvironmentKeys } from "../../src/workspace/match-allowlist.js";
import { formatAllowlistProblem, parseAllowlist } from "../../src/workspace/parse-allowlist.js";

const ok = (text: string) => {
  const r = parseAllowlist(text, "tools/allowed_commands.toml");
  expect(r.problems.map(formatAllowlistProblem)).toEqual([]);
  return r.allowlist;
};
const problems = (text: string) => parseAllowlist(text, "allow.toml").problems.map(formatAllowlistProblem);

/** Reference: the pattern as a regular expression. */
function reference(pattern: string, value: string): boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") re += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    else if (c === "*") re += "[\\s\\S]*";
    else re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "u").test(value);
}

describe("argument patterns", () => {
  it("literal text, * for any run, \\* and \\\\ escapes", () => {
    const m = (p: string, v: string) => matchArgPattern(parseArgPattern(p), v);
    expect(m("--format=*", "--format=json")).toBe(true);
    expect(m("--format=*", "--format=")).toBe(true);
    expect(m("--format=*", "--output=x")).toBe(false);
    expect(m("*", "a/b; rm -rf / && `x` $(y)")).toBe(true);
    expect(m("a\\*b", "a*b")).toBe(true);
    expect(m("a\\*b", "axb")).toBe(false);
    expect(m("a\\\\b", "a\\b")).toBe(true);
    expect(m("src/*.ts", "src/a/b.ts")).toBe(true);
    expect(m("exact", "exact ")).toBe(false);
    expect(() => parseArgPattern("a\\b")).toThrow(PatternSyntaxError);
    expect(() => parseArgPattern("trailing\\")).toThrow(PatternSyntaxError);
  });

  it("agrees with a regular-expression reference (property), and stays linear on hostile input", () => {
    const pat = fc.string({ unit: fc.constantFrom("a", "b", "*", "\\*", "\\\\", "/", "é"), maxLength: 8 });
    const val = fc.string({ unit: fc.constantFrom("a", "b", "*", "\\", "/", "é", "c"), maxLength: 10 });
    fc.assert(
      fc.property(pat, val, (p, v) => {
        expect(matchArgPattern(parseArgPattern(p), v)).toBe(reference(p, v));
      }),
      { numRuns: 5000 },
    );
    const hostile = "a".repeat(20000);
    expect(matchArgPattern(parseArgPattern("*a*a*a*a*a*a*a*a*b"), hostile)).toBe(false);
  });
});

describe("parseAllowlist", () => {
  it("this repository's own allowlist parses and admits what its agents run", () => {
    const a = ok(readFileSync(new URL("../../tools/allowed_commands.toml", import.meta.url), "utf8"));
    // Each admitted by the record written for it.
    expect(matchAllowlist(a, "git", ["status", "--short"])?.argv).toEqual(["git", "status", "--short"]);
    expect(matchAllowlist(a, "npx", ["--no", "vitest", "run", "test/workspace"])?.argv).toEqual(["npx", "--no", "vitest", "run", "test/*"]);
    expect(matchAllowlist(a, "npx", ["vitest", "run"])).toBeNull(); // never without --no (no downloads)
    expect(matchAllowlist(a, "git", ["push"])).toBeNull();
    expect(matchAllowlist(a, "git", ["diff", "--", "src/a.ts", "README.md"])?.argv).toEqual(["git", "diff", "--", "**"]);
    // No record admits an option that reads or writes outside the repository.
    for (const args of [
      ["diff", "--output=/tmp/x"],
      ["diff", "--no-index", "/etc/passwd", "x"],
      ["log", "--oneline", "--output=/tmp/x"],
      ["diff", "--stat", "--output=/tmp/x"],
    ])
      expect(matchAllowlist(a, "git", args), args.join(" ")).toBeNull();
    expect(matchAllowlist(a, "npx", ["--no", "vitest", "run", "--outputFile=/tmp/x"])).toBeNull();
    expect(matchAllowlist(a, "npx", ["--no", "vitest", "run", "test/a", "--config=/tmp/x.ts"])).toBeNull();
  });

  it("reads records: argv, ** rest, environment, inherit, env, timeout, description", () => {
    const a = ok(`# comment
[[command]]
argv = ["git", "status"]

[[command]]
argv = ["git", "diff", "**"]
environment = ["GIT_PAGER", "NPM_CONFIG_*"]
inherit = ["HOME"]
env = { CI = "1" }
timeout_seconds = 900
description = "diffs"
`);
    expect(a.records).toHaveLength(2);
    expect(a.records[0]).toMatchObject({ line: 2, argv: ["git", "status"], rest: false, timeoutSeconds: 600 });
    expect(a.records[1]).toMatchObject({ line: 5, rest: true, inherit: ["HOME"], env: { CI: "1" }, timeoutSeconds: 900, description: "diffs" });
    expect(parseAllowlist("", "x").allowlist.records).toEqual([]);
  });

  it("bad TOML and bad records are problems naming file, line and column", () => {
    expect(problems('[[command]]\nargv = ["a",\n  oops\n]\n')).toEqual(["allow.toml:3:3: not valid TOML: invalid value"]);
    expect(problems('[[command]]\nargv = ["git"]\n\n[[command]]\nargv = ["/bin/sh", "-c"]\n')).toEqual([
      'allow.toml:4:1: [[command]] #2: argv[0] "/bin/sh": expected a bare executable name (letters, digits, . _ + -; no directory, no wildcard)',
    ]);
    expect(problems('[[command]]\nargv = ["git", "**", "x"]\n')[0]).toContain('"**" (any further arguments) may only be the last element');
    expect(problems("[[command]]\nargv = []\n")[0]).toContain("argv: expected a non-empty array of strings");
    expect(problems('[[command]]\nargv = ["git"]\nargz = 1\n')[0]).toContain('unknown key "argz"');
    expect(problems('[[command]]\nargv = ["git"]\nenvironment = ["PATH"]\n')[0]).toContain("PATH");
    expect(problems('[[command]]\nargv = ["git"]\nenvironment = ["*"]\n')[0]).toContain("would accept every variable");
    expect(problems('[[command]]\nargv = ["git"]\nenvironment = ["LD_*"]\n')[0]).toContain("loader variable");
    expect(problems('[[command]]\nargv = ["git"]\ninherit = ["PATH"]\n')[0]).toContain("PATH cannot be passed through");
    expect(problems('[[command]]\nargv = ["git"]\nenv = { LD_PRELOAD = "x" }\n')[0]).toContain("cannot be set here");
    expect(problems('[[command]]\nargv = ["git"]\ntimeout_seconds = 0\n')[0]).toContain("timeout_seconds");
    expect(problems('[[command]]\nargv = ["git", "a\\\\b"]\n')[0]).toContain('"\\" must be followed');
    expect(problems("version = 2\n")[0]).toContain('unknown top-level key "version"');
    expect(problems("command = 3\n")[0]).toContain("expected [[command]] records");
  });

  it("never throws, whatever the text (property)", () => {
    const tomlish = fc.string({
      unit: fc.constantFrom("[", "]", "[[command]]\n", "argv", " = ", '"', "git", ",", "\n", "*", "\\", "{", "}", "env", "1", "#"),
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string(), tomlish), (text) => {
        const r = parseAllowlist(text, "f.toml");
        for (const p of r.problems) {
          expect(p.line).toBeGreaterThanOrEqual(1);
          expect(p.column).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe("matchAllowlist", () => {
  const word = fc.string({ unit: fc.constantFrom("a", "b", "-", "=", ";", "|", "$", "(", " ", "/", "."), minLength: 1, maxLength: 6 });
  const literal = (s: string) => s.replace(/\\/g, "\\\\").replace(/\*/g, "\\*");

  it("a record written with literal arguments admits exactly its argv (property, through real TOML)", () => {
    fc.assert(
      fc.property(fc.constantFrom("git", "npm", "echo"), fc.array(word, { maxLength: 4 }), fc.array(word, { maxLength: 4 }), (cmd, args, other) => {
        const text = stringify({ command: [{ argv: [cmd, ...args.map(literal)] }] });
        const a = ok(text);
        expect(matchAllowlist(a, cmd, args)).toBe(a.records[0]);
        const same = other.length === args.length && other.every((o, i) => o === args[i]);
        expect(matchAllowlist(a, cmd, other) !== null).toBe(same);
        expect(matchAllowlist(a, `${cmd}x`, args)).toBeNull();
        expect(matchAllowlist(a, cmd, [...args, "extra"])).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('"**" admits any further arguments, at least the fixed ones; the first matching record wins', () => {
    const a = ok('[[command]]\nargv = ["git", "log", "--oneline", "**"]\n\n[[command]]\nargv = ["git", "*"]\nenvironment = ["GIT_*"]\n');
    expect(recordMatches(a.records[0]!, "git", ["log", "--oneline"])).toBe(true);
    expect(recordMatches(a.records[0]!, "git", ["log", "--oneline", "-5", "; rm -rf /"])).toBe(true);
    expect(recordMatches(a.records[0]!, "git", ["log"])).toBe(false);
    expect(matchAllowlist(a, "git", ["log", "--oneline", "x"])!.index).toBe(0);
    expect(matchAllowlist(a, "git", ["push"])!.index).toBe(1);
    expect(matchAllowlist(a, "git", ["push", "origin"])).toBeNull();
    expect(refusedEnvironmentKeys(a.records[1]!, ["GIT_PAGER", "HOME", "GIT", "GIT_"])).toEqual(["HOME", "GIT"]);
    expect(refusedEnvironmentKeys(a.records[0]!, ["X"])).toEqual(["X"]);
  });
});
