/**
 * .notarai/config.yaml:
 * - any valid configuration, written as YAML in any key order and style, reads back (defaults filled in);
 * - an invalid value is an error naming file, line and column, what was expected and what was found;
 * - unknown keys are warnings at their line, with a suggestion; the rest still applies;
 * - YAML syntax errors, a non-mapping root and an empty file;
 * - loadConfig: --config overrides the repository's file; errors are exit-2 ConfigErrors.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { stringify } from "yaml";
import { ConfigError, DEFAULT_CONFIG, loadConfig, parseConfig } from "../../src/internal.js";
import { loadConfigLazy } from "../../src/config/load-config-lazy.js";
import { tempDir } from "../helpers/temp-repo.js";

const glob = fc.string({ minLength: 1, maxLength: 10, unit: fc.constantFrom("a", "*", "/", ".", "-", "{", "}", ",", " ", "#", ":") });
const word = fc.stringMatching(/^[a-z][a-z0-9_./-]{0,12}$/);
const argv = fc.array(word, { minLength: 1, maxLength: 4 });
const workspace = fc.record({ allowlist: word, ledger: word, archive: word, test: argv, build: argv }, { requiredKeys: [] });
const config = fc.record(
  { transcripts: fc.constantFrom("warn", "strict"), drift: fc.constantFrom("warning", "error"), exclude: fc.array(glob, { maxLength: 4 }), workspace },
  { requiredKeys: [] },
);
/** What parseConfig must make of a generated configuration: defaults for everything not given. */
const effective = (c: { workspace?: Record<string, unknown> } & Record<string, unknown>) => ({
  ...DEFAULT_CONFIG,
  ...c,
  workspace: { ...DEFAULT_CONFIG.workspace, ...(c.workspace ?? {}) },
});

describe("parseConfig", () => {
  it("reads back any valid configuration, whatever the YAML style", () => {
    fc.assert(
      fc.property(config, fc.constantFrom("PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE"), fc.boolean(), (c, style, flow) => {
        const text = stringify(c, { defaultStringType: style as "PLAIN", collectionStyle: flow ? "flow" : "block" });
        const r = parseConfig(text, ".notarai/config.yaml");
        expect(r.problems).toEqual([]);
        expect(r.config).toEqual(effective(c));
      }),
    );
  });

  it("reports unknown keys as warnings at their line, and still applies the known ones", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.stringMatching(/^x[a-z_]{2,8}$/), (blank, key) => {
        const text = `${"\n".repeat(blank)}drift: error\n${key}: 1\n`;
        const r = parseConfig(text, "c.yaml");
        expect(r.config.drift).toBe("error");
        expect(r.problems).toEqual([
          { severity: "warning", file: "c.yaml", line: blank + 2, column: 1, message: expect.stringContaining(`unknown key "${key}"`) },
        ]);
      }),
    );
    expect(parseConfig("transcript: strict\n", "c.yaml").problems[0]!.message).toContain('(did you mean "transcripts"?)');
  });

  it("an invalid value is an error naming the line and column, expected and found", () => {
    const r = parseConfig("# settings\ntranscripts: warn\ndrift: fatal\nexclude: docs/**\n", ".notarai/config.yaml");
    expect(r.problems).toEqual([
      { severity: "error", file: ".notarai/config.yaml", line: 3, column: 8, message: 'drift: expected one of "warning", "error", found "fatal"' },
      { severity: "error", file: ".notarai/config.yaml", line: 4, column: 10, message: 'exclude: expected a list, found "docs/**"' },
    ]);
  });

  it("workspace: paths and argv lists, defaults for what is not given, errors and warnings at their line", () => {
    const r = parseConfig("workspace:\n  test: [npm, test]\n  allowlist: ops/allow.toml\n", "c.yaml");
    expect(r.problems).toEqual([]);
    expect(r.config.workspace).toEqual({ ...DEFAULT_CONFIG.workspace, test: ["npm", "test"], allowlist: "ops/allow.toml" });
    expect(DEFAULT_CONFIG.workspace).toEqual({
      allowlist: "tools/allowed_commands.toml",
      ledger: "docs/evidence_ledger.tools.log",
      archive: "archive",
      test: null,
      build: null,
    });
    expect(parseConfig("workspace:\n  test: npm test\n", "c.yaml").problems).toEqual([
      { severity: "error", file: "c.yaml", line: 2, column: 9, message: 'workspace.test: expected a list, found "npm test"' },
    ]);
    expect(parseConfig("workspace:\n  build: []\n", "c.yaml").problems).toEqual([
      { severity: "error", file: "c.yaml", line: 2, column: 10, message: "workspace.build: expected a non-empty list, found []" },
    ]);
    expect(parseConfig("workspace: yes\n", "c.yaml").problems[0]!.message).toBe('workspace: expected a mapping, found "yes"');
    expect(parseConfig("workspace:\n  tests: [npm, test]\n", "c.yaml").problems).toEqual([
      {
        severity: "warning",
        file: "c.yaml",
        line: 2,
        column: 3,
        message: expect.stringContaining('unknown key "workspace.tests" (did you mean "test"?) is ignored'),
      },
    ]);
  });

  it("YAML errors, non-mapping roots and empty files", () => {
    expect(parseConfig("drift: [\n", "c.yaml").problems[0]).toMatchObject({
      severity: "error",
      line: 2,
      column: 1,
      message: expect.stringContaining("not valid YAML"),
    });
    expect(parseConfig("drift: a\ndrift: b\n", "c.yaml").problems[0]).toMatchObject({ severity: "error", line: 2 });
    expect(parseConfig("- a\n", "c.yaml").problems[0]).toMatchObject({ severity: "error", line: 1, message: expect.stringContaining("expected a mapping") });
    expect(parseConfig("", "c.yaml")).toEqual({ config: DEFAULT_CONFIG, problems: [] });
    expect(parseConfig("# only a comment\n", "c.yaml")).toEqual({ config: DEFAULT_CONFIG, problems: [] });
  });
});

describe("loadConfig", () => {
  it("--config overrides the repository's file; errors are ConfigErrors (exit 2); warnings go to onWarning", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "mine.yaml"), "transcripts: strict\nextra: 1\n");
    const warnings: string[] = [];
    const c = loadConfig({ cwd: dir, override: "mine.yaml", read: () => "transcripts: warn\n", onWarning: (m) => warnings.push(m) });
    expect(c.transcripts).toBe("strict");
    expect(warnings).toEqual([expect.stringMatching(/^mine\.yaml:2:1: warning: unknown key "extra"/)]);
    expect(loadConfig({ cwd: dir, read: () => null })).toEqual(DEFAULT_CONFIG);
    expect(loadConfig({ cwd: dir, read: (p) => (p === ".notarai/config.yaml" ? "drift: error\n" : null) }).drift).toBe("error");
    const bad = (() => {
      try {
        loadConfig({ cwd: dir, read: () => "drift: 3\n" });
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(bad).toBeInstanceOf(ConfigError);
    expect(bad).toMatchObject({ code: "config-invalid", kind: "expected" });
    expect((bad as ConfigError).message).toContain(".notarai/config.yaml:1:8: error: drift:");
    expect(() => loadConfig({ cwd: dir, override: "missing.yaml", read: () => null })).toThrow(/cannot read the configuration file missing\.yaml/);
  });
});

describe("loadConfigLazy", () => {
  it("answers what loadConfig answers, reading the repository's file once", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "mine.yaml"), "transcripts: strict\n");
    const counted = (text: string | null): { read: (p: string) => string | null; reads: string[] } => {
      const reads: string[] = [];
      return { reads, read: (p) => (reads.push(p), p === ".notarai/config.yaml" ? text : null) };
    };
    for (const text of [null, "drift: error\nexclude: [a/**]\n", "workspace:\n  test: [npm, test]\n"]) {
      const lazy = counted(text);
      expect(await loadConfigLazy({ cwd: dir, read: lazy.read })).toEqual(loadConfig({ cwd: dir, read: counted(text).read }));
      expect(lazy.reads).toEqual([".notarai/config.yaml"]);
    }
    expect(await loadConfigLazy({ cwd: dir, override: "mine.yaml", read: () => "transcripts: warn\n" })).toEqual(
      loadConfig({ cwd: dir, override: "mine.yaml", read: () => null }),
    );
    await expect(loadConfigLazy({ cwd: dir, read: () => "drift: 3\n" })).rejects.toBeInstanceOf(ConfigError);
    await expect(loadConfigLazy({ cwd: dir, override: "missing.yaml", read: () => null })).rejects.toThrow(/cannot read the configuration file missing\.yaml/);
    // The defaults are a fresh object each time (a caller may extend its exclude list).
    const a = await loadConfigLazy({ cwd: dir, read: () => null });
    a.exclude.push("x");
    expect((await loadConfigLazy({ cwd: dir, read: () => null })).exclude).toEqual([]);
  });
});
