/**
 * `check --fix`, `--fix-dry-run` and the `fix` field of `check --format json`, through the
 * real CLI in real repositories:
 * - each fix: the diagnostic carries a fix in the JSON report; `--fix` applies it and the
 *   diagnostic is gone (judged in process: the CLI's `check` is a shell over the same call); the JSON
 *   fix's ops, applied as a patch (in process), do exactly what `--fix` does;
 * - what has no fix: ambiguous lookalikes, changes no block with an id encloses, documents
 *   with duplicate ids, codes that need a person's judgement;
 * - `--fix-dry-run` writes nothing and prints a diff `git apply` applies;
 * - transcripts: one record per op where one exists (`transcript verify --strict` clean,
 *   `--base` replays), none started where none exists;
 * - usage errors: paths outside the repository, both flags at once.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkNomaText } from "../../src/check/check-noma-text.js";
import { applyPatch } from "../../src/patch/apply-patch.js";
import { patchInProcess } from "../helpers/patch-in-process.js";
import { runCli } from "../helpers/run-cli.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { git, tempDir } from "../helpers/temp-repo.js";

/** Each test's repository: a copy of one built once per tree. */
const tempRepo = repoTemplates().repo;

interface Case {
  code: string;
  doc: string;
  /** The document after --fix. */
  fixed: string;
}

const CASES: Case[] = [
  {
    code: "broken-reference",
    doc: '::claim{id="main-claim" confidence=0.8}\nGrowth.\n::\n\n::evidence{id="e1" for="Main_Claim"}\nData.\n::\n',
    fixed: '::claim{id="main-claim" confidence=0.8}\nGrowth.\n::\n\n::evidence{id="e1" for="main-claim"}\nData.\n::\n',
  },
  {
    code: "broken-reference",
    // Every reference to the target is rewritten, a label kept; a link in code is not a reference.
    doc: '::claim{id="main-claim" confidence=0.8}\nGrowth.\n::\n\n::note{id="n1"}\nSee [[Main-Claim]], [[Main-Claim|the claim]] and `[[Main-Claim]]`.\n::\n\n::evidence{id="e1" for="main-claim"}\nx\n::\n',
    fixed:
      '::claim{id="main-claim" confidence=0.8}\nGrowth.\n::\n\n::note{id="n1"}\nSee [[main-claim]], [[main-claim|the claim]] and `[[Main-Claim]]`.\n::\n\n::evidence{id="e1" for="main-claim"}\nx\n::\n',
  },
  {
    code: "broken-reference",
    // Inside a block without an id: the enclosing block with one is rewritten.
    doc: '# Risks {id="risks"}\n\n::section{id="s"}\n:::note\nSee [[RISKS]].\n:::\n::\n',
    fixed: '# Risks {id="risks"}\n\n::section{id="s"}\n:::note\nSee [[risks]].\n:::\n::\n',
  },
  {
    code: "plot-unknown-dataset",
    // dataset= names a block, but not a dataset: among the datasets, one is written that way.
    doc: '::note{id="sales"}\nx\n::\n\n::dataset{id="Sales" format=csv}\nmonth,revenue\njan,1\n::\n\n::plot{id="p" dataset="sales" column="revenue"}\n::\n',
    fixed: '::note{id="sales"}\nx\n::\n\n::dataset{id="Sales" format=csv}\nmonth,revenue\njan,1\n::\n\n::plot{id="p" dataset="Sales" column="revenue"}\n::\n',
  },
  {
    code: "broken-reference",
    // dataset= names nothing: the reference is broken (and the plot has no dataset); one fix mends both.
    doc: '::dataset{id="sales_2024" format=csv}\nmonth,revenue\njan,1\n::\n\n::plot{id="p" dataset="Sales-2024" column="revenue"}\n::\n',
    fixed: '::dataset{id="sales_2024" format=csv}\nmonth,revenue\njan,1\n::\n\n::plot{id="p" dataset="sales_2024" column="revenue"}\n::\n',
  },
  {
    code: "plot-unknown-column",
    doc: '::dataset{id="d" format=csv}\nmonth,Net Revenue\njan,1\n::\n\n::plot{id="p" dataset="d" column="net_revenue"}\n::\n',
    fixed: '::dataset{id="d" format=csv}\nmonth,Net Revenue\njan,1\n::\n\n::plot{id="p" dataset="d" column="Net Revenue"}\n::\n',
  },
  {
    code: "plot-mixed-delimiters",
    doc: '::plot{id="p" data="1 2  3" xlabels="a,b,c"}\n::\n',
    fixed: '::plot{id="p" data="1,2,3" xlabels="a,b,c"}\n::\n',
  },
  {
    code: "control-invalid-lock",
    doc: '::control{id="k" type=slider default=1 lock="Content "}\n::\n',
    fixed: '::control{id="k" type=slider default=1 lock="content"}\n::\n',
  },
  {
    code: "claim-invalid-confidence",
    doc: '::claim{id="c" confidence="85%"}\nx\n::\n\n::evidence{id="e" for="c"}\ny\n::\n',
    fixed: '::claim{id="c" confidence=0.85}\nx\n::\n\n::evidence{id="e" for="c"}\ny\n::\n',
  },
  {
    code: "memory-invalid-confidence",
    doc: '::memory{id="m" type=fact confidence="7.5 %"}\nx\n::\n',
    fixed: '::memory{id="m" type=fact confidence=0.075}\nx\n::\n',
  },
  {
    code: "memory-invalid-last-seen",
    doc: '::memory{id="m" type=fact last_seen="2024/02/29"}\nx\n::\n',
    fixed: '::memory{id="m" type=fact last_seen="2024-02-29"}\nx\n::\n',
  },
  {
    code: "memory-missing-id",
    doc: '::memories{id="mem"}\n:::memory{type=preference}\nUser prefers dark mode in every editor.\n:::\n\n:::memory{type=fact}\n:::\n::\n\n::note{id="user-prefers-dark-mode-in-every"}\nx\n::\n',
    fixed:
      '::memories{id="mem"}\n:::memory{type=preference id="user-prefers-dark-mode-in-every-2"}\nUser prefers dark mode in every editor.\n:::\n\n:::memory{type=fact id="memory"}\n:::\n::\n\n::note{id="user-prefers-dark-mode-in-every"}\nx\n::\n',
  },
  {
    code: "diagram-missing-kind",
    doc: '::diagram{id="d1"}\nsequenceDiagram\n  A->>B: hi\n::\n\n::diagram{id="d2"}\ndigraph G { a -> b }\n::\n',
    fixed: '::diagram{id="d1" kind="mermaid"}\nsequenceDiagram\n  A->>B: hi\n::\n\n::diagram{id="d2" kind="graphviz"}\ndigraph G { a -> b }\n::\n',
  },
];

interface JsonDiagnostic {
  code: string;
  pos?: { line: number };
  fix?: { description: string; ops: Array<Record<string, unknown>> };
}

function diagnostics(repo: string, file = "d.noma"): JsonDiagnostic[] {
  const r = runCli(["check", file, "--format", "json"], { cwd: repo });
  return JSON.parse(r.stdout).result.files.find((f: { file: string }) => f.file === file)?.diagnostics ?? [];
}

describe("check --fix: each fix", () => {
  it.each(CASES.map((c, i) => [`${c.code} #${i + 1}`, c] as const))("%s", (_, c) => {
    const repo = tempRepo({ "d.noma": c.doc });
    const before = diagnostics(repo).filter((d) => d.code === c.code);
    expect(before.length).toBeGreaterThan(0);
    const withFix = before.filter((d) => d.fix !== undefined);
    expect(withFix.length).toBeGreaterThan(0);
    for (const d of withFix) for (const op of d.fix!.ops) expect(op["baseHash"]).toMatch(/^[0-9a-f]{16}$/);
    const r = runCli(["check", "d.noma", "--fix"], { cwd: repo });
    expect(r.stderr).toMatch(/^fixed d\.noma: \d+ fix(es)?\n/m);
    expect(r.stderr).toContain(`[${c.code}]`);
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(c.fixed);
    expect(checkNomaText("d.noma", readFileSync(join(repo, "d.noma"), "utf8")).diagnostics.filter((d) => d.code === c.code)).toEqual([]);
    // No transcript is started.
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
    // The JSON fix is real patch ops: applied as a patch, the first fix does what --fix did for it.
    if (before.length === 1) {
      const p = applyPatch(c.doc, withFix[0]!.fix!.ops);
      expect(p.error).toBeUndefined();
      expect(p.result).toBe("applied");
      expect(p.text).toBe(c.fixed);
    }
  });
});

describe("check --fix: what has no fix", () => {
  it("a reference with two lookalike targets", () => {
    const doc = '::claim{id="a-b" confidence=0.5}\nx\n::\n\n::claim{id="a_b" confidence=0.5}\nx\n::\n\n::evidence{id="e" for="A-B"}\ny\n::\n';
    const repo = tempRepo({ "d.noma": doc });
    expect(diagnostics(repo).find((d) => d.code === "broken-reference")?.fix).toBeUndefined();
    const r = runCli(["check", "d.noma", "--fix"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("nothing to fix");
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(doc);
  });

  it("a link in a top-level paragraph (no block with an id encloses it), and a top-level memory without an id", () => {
    const doc = '# Intro {id="intro"}\n\nSee [[Intro]].\n\n::memory{type=fact}\nx\n::\n';
    const repo = tempRepo({ "d.noma": doc });
    const ds = diagnostics(repo);
    expect(ds.map((d) => d.code).sort()).toEqual(["broken-reference", "memory-missing-id"]);
    expect(ds.every((d) => d.fix === undefined)).toBe(true);
  });

  it("any diagnostic of a document with duplicate ids (§2.1: no patch may address it)", () => {
    const doc = '::claim{id="c" confidence="85%"}\nx\n::\n\n::note{id="c"}\ny\n::\n';
    const repo = tempRepo({ "d.noma": doc });
    expect(diagnostics(repo).every((d) => d.fix === undefined)).toBe(true);
  });

  it("codes that need a person: owner, status, alt text, trust", () => {
    const doc = '::risk{id="r"}\nx\n::\n\n::figure{id="f"}\n::\n\n::html{id="h"}\n<b>x</b>\n::\n';
    const repo = tempRepo({ "d.noma": doc });
    const ds = diagnostics(repo);
    expect(ds.map((d) => d.code).sort()).toEqual(["escape-hatch-untrusted", "figure-missing-alt", "risk-without-owner"]);
    expect(ds.every((d) => d.fix === undefined)).toBe(true);
  });
});

describe("check --fix-dry-run", () => {
  it("writes nothing and prints a diff git apply applies to what --fix writes", () => {
    const doc = CASES[0]!.doc;
    const repo = tempRepo({ "docs/d.noma": doc });
    const r = runCli(["check", "docs", "--fix-dry-run"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      '--- a/docs/d.noma\n+++ b/docs/d.noma\n@@ -2,6 +2,6 @@\n Growth.\n ::\n \n-::evidence{id="e1" for="Main_Claim"}\n+::evidence{id="e1" for="main-claim"}\n Data.\n ::\n',
    );
    expect(r.stderr).toContain('would fix docs/d.noma: 1 fix\n  [broken-reference] line 5: "Main_Claim" → "main-claim" (1 reference)');
    expect(readFileSync(join(repo, "docs/d.noma"), "utf8")).toBe(doc);
    writeFileSync(join(repo, "fix.diff"), r.stdout);
    git(repo, ["apply", "fix.diff"]);
    expect(readFileSync(join(repo, "docs/d.noma"), "utf8")).toBe(CASES[0]!.fixed);
  });

  it("--format json lists the fixes with their ops and diff", () => {
    const repo = tempRepo({ "d.noma": CASES[0]!.doc });
    const out = JSON.parse(runCli(["check", "d.noma", "--fix-dry-run", "--format", "json"], { cwd: repo }).stdout);
    expect(out.result.would_fix).toHaveLength(1);
    expect(out.result.would_fix[0]).toMatchObject({ file: "d.noma", fixes: [{ code: "broken-reference", line: 5 }] });
    expect(out.result.would_fix[0].fixes[0].ops[0]).toMatchObject({ op: "update_attribute", id: "e1", key: "for", value: "main-claim" });
    expect(out.result.would_fix[0].diff).toContain('+::evidence{id="e1" for="main-claim"}');
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(CASES[0]!.doc);
  });
});

describe("check --fix and transcripts", () => {
  it("records one record per op; transcript verify --strict is clean and --base replays the fixes", () => {
    const doc = '::claim{id="main-claim" confidence="80%"}\nx\n::\n\n::evidence{id="e1" for="Main Claim"}\nSee [[MAIN_CLAIM]].\n::\n';
    const repo = tempRepo({ "d.noma": doc });
    writeFileSync(join(repo, "base.noma"), doc);
    // The transcript --fix appends to, started in process (what `patch d.noma --op …` writes).
    patchInProcess(repo, "d.noma", { op: "update_attribute", id: "e1", key: "status", value: "ok" });
    const r = runCli(["check", "--fix", "--format", "json"], { cwd: repo });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(true);
    expect(out.result.fixed).toEqual([expect.objectContaining({ file: "d.noma", transcript: "d.noma.patches" })]);
    const ops = out.result.fixed[0].fixes.flatMap((f: { ops: unknown[] }) => f.ops);
    const records = readFileSync(join(repo, "d.noma.patches"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(1 + ops.length);
    expect(records.slice(1).map((x) => x.op)).toEqual(ops);
    expect(records[1]).toMatchObject({ actor: { kind: "tool", name: "noma-reconcile check --fix" }, patch_result: "applied" });
    expect(records[1].reason).toMatch(/^noma-reconcile check --fix: 3 fixes \(/);
    expect(runCli(["transcript", "verify", "d.noma", "--strict"], { cwd: repo }).code).toBe(0);
    const replay = runCli(["transcript", "verify", "d.noma", "--strict", "--base", "base.noma"], { cwd: repo });
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain("replay reproduces it byte for byte");
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(
      '::claim{id="main-claim" confidence=0.8}\nx\n::\n\n::evidence{id="e1" for="main-claim" status="ok"}\nSee [[main-claim]].\n::\n',
    );
  });
});

describe("check --fix: usage", () => {
  it("refuses paths outside the repository, and --fix with --fix-dry-run", () => {
    const repo = tempRepo({ "d.noma": CASES[0]!.doc });
    const outside = join(tempDir(), "x.noma");
    writeFileSync(outside, CASES[0]!.doc);
    const o = runCli(["check", outside, "--fix"], { cwd: repo });
    expect(o.code).toBe(2);
    expect(o.stderr).toContain("--fix writes, so every path must be inside the repository");
    expect(readFileSync(outside, "utf8")).toBe(CASES[0]!.doc);
    const both = runCli(["check", "--fix", "--fix-dry-run"], { cwd: repo });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give one of --fix and --fix-dry-run");
  });
});
