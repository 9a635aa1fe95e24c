/**
 * `verify <dir>` (Annex C.4): discover every fixture under a corpus root,
 * evaluate each, and report in the exact harness format:
 *
 *   PASS  <dir>/valid/basic-section
 *   FAIL  <dir>/patch/rename_id  — <reason>
 *   SKIP  <dir>/valid/aliases
 *
 *   40 fixtures, 39 passed
 *
 * A fixture is any directory holding `input.noma`; a directory holding
 * expected files or patch.json but no `input.noma` is reported as SKIP (and
 * is not a pass). Fixtures are sorted by path; output is byte-identical across runs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { evaluateFixture, type FixturePatchEngine } from "./evaluate-fixture.js";

export interface FixtureResult {
  path: string;
  status: "PASS" | "FAIL" | "SKIP";
  reason?: string;
}

export interface CorpusReport {
  results: FixtureResult[];
  passed: number;
  /** The harness output, ending with the summary line and a newline. */
  text: string;
  /** 0 all pass, 1 any failure or skip. */
  exitCode: 0 | 1;
}

const FIXTURE_FILES = /^(?:expected\..+|patch\.json|patch\.options\.json)$/;

function discover(root: string, rel: string, found: Array<{ rel: string; hasInput: boolean }>): void {
  const abs = rel.length > 0 ? join(root, rel) : root;
  const entries = readdirSync(abs, { withFileTypes: true });
  const names = entries.map((e) => e.name);
  if (names.includes("input.noma")) found.push({ rel, hasInput: true });
  else if (rel.length > 0 && entries.some((e) => e.isFile() && FIXTURE_FILES.test(e.name))) found.push({ rel, hasInput: false });
  for (const e of entries) {
    if (e.isDirectory() && !e.name.startsWith(".")) discover(root, rel.length > 0 ? `${rel}/${e.name}` : e.name, found);
  }
}

function display(dirArg: string, rel: string): string {
  const base = dirArg.replace(/\\/g, "/").replace(/\/+$/, "");
  if (rel.length === 0) return base.length > 0 ? base : ".";
  return base.length > 0 ? `${base}/${rel}` : rel;
}

/** True when `dir` exists and is a directory. */
export function isCorpusDir(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory();
}

export function verifyCorpus(dir: string, engine?: FixturePatchEngine, displayDir: string = dir): CorpusReport {
  const found: Array<{ rel: string; hasInput: boolean }> = [];
  discover(dir, "", found);
  const results: FixtureResult[] = found
    .map(({ rel, hasInput }) => {
      const path = display(displayDir, rel);
      if (!hasInput) return { path, status: "SKIP" as const };
      const fixtureDir = rel.length > 0 ? join(dir, rel) : dir;
      const cache = new Map<string, string | undefined>();
      const files = {
        get(name: string): string | undefined {
          if (!cache.has(name)) {
            const p = join(fixtureDir, name);
            cache.set(name, existsSync(p) ? readFileSync(p, "utf8") : undefined);
          }
          return cache.get(name);
        },
      };
      const outcome = evaluateFixture(files, engine);
      return outcome.ok ? { path, status: "PASS" as const } : { path, status: "FAIL" as const, reason: outcome.reason };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const passed = results.filter((r) => r.status === "PASS").length;
  const lines = results.map((r) => (r.status === "FAIL" ? `FAIL  ${r.path}  — ${r.reason}` : `${r.status}  ${r.path}`));
  lines.push("", `${results.length} ${results.length === 1 ? "fixture" : "fixtures"}, ${passed} passed`);
  return { results, passed, text: `${lines.join("\n")}\n`, exitCode: passed === results.length ? 0 : 1 };
}
