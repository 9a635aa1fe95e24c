/**
 * `noma-reconcile ci`, the PR check, spawned in real repositories:
 * - merge-base diffs: changes made on the base after the fork point are not the PR's;
 * - the base from --base, a simulated GitHub event file (pull_request, its merge
 *   commit, merge_group, push, a new branch's all-zero `before`), else the default branch;
 * - shallow clones are deepened; when that is not enough, exit 2 with a fetch-depth hint;
 * - what check does, on the files the PR changes, as committed at HEAD; transcripts
 *   against their documents and append-only relative to the merge-base; a judged path committed as a
 *   symbolic link is file-unreadable;
 * - drift per affected spec with the governing glob: a warning, or an error under `drift: error`;
 * - every format: text, json, github (capped annotations, step summary, outputs), sarif;
 * - --fail-on, --sarif-file, and exit 2 for bad refs and bad event files.
 */
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoTemplates } from "../../helpers/repo-templates.js";
import { runCli } from "../../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../../helpers/temp-repo.js";
import { BROKEN, CLAIM, patch, VALID } from "../staged/fixtures.js";
import { ciRepo as buildCiRepo, commitAll, reconcileAll, SPEC_PATH, twoPatchesOnMain, writeTree } from "./ci-repo.js";
import { DEFAULT_WORKSPACE_CONFIG } from "../../../src/config/config-schema.js";

/** Each test's repository: a copy of the one ciRepo() builds, built once. */
const templates = repoTemplates();
const ciRepo = (): Promise<string> => templates.copyAsync("ci", () => buildCiRepo());

interface CiResult {
  base: { ref: string; source: string; commit: string; merge_base: string };
  changed_files: string[];
  checked: string[];
  affected_specs: string[];
  drift: {
    severity: string;
    specs: Array<{ spec_path: string; unreconciled: Array<{ path: string; glob: string; category: string; reason: string }>; reconciled: string[] }>;
  };
  files: Array<{ file: string; diagnostics: Array<{ severity: string; code: string; message: string; pos?: { line: number } }> }>;
}
interface Envelope {
  schema: string;
  command: string;
  ok: boolean;
  summary: { files: number; errors: number; warnings: number; drift: number; affected_specs: number };
  result: CiResult;
  warnings: string[];
}

const ciJson = (repo: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): { code: number; env: Envelope; out: CiResult; stderr: string } => {
  const r = runCli(["ci", "--format", "json", ...args], { cwd: repo, env });
  const parsed = JSON.parse(r.stdout) as Envelope;
  return { code: r.code, env: parsed, out: parsed.result, stderr: r.stderr };
};
const codes = (e: CiResult, file: string): string[] => e.files.find((f) => f.file === file)?.diagnostics.map((d) => d.code) ?? [];

describe("ci: the diff is merge-base…HEAD", () => {
  it("changes on the base branch after the fork point are not in the PR", async () => {
    const repo = await ciRepo();
    writeTree(repo, { "docs/feature.noma": VALID, "src/a.ts": "a2\n" });
    commitAll(repo, "feature work");
    git(repo, ["checkout", "-q", "main"]);
    writeTree(repo, { "docs/main-only.noma": BROKEN, "src/b.ts": "b-on-main\n" });
    const mainTip = commitAll(repo, "main moves on");
    git(repo, ["checkout", "-q", "feature"]);
    const { code, out } = ciJson(repo, ["--base", "main"]);
    expect(out.base).toMatchObject({ ref: "main", source: "option", commit: mainTip });
    expect(out.base.merge_base).not.toBe(mainTip);
    expect(out.changed_files).toEqual(["docs/feature.noma", "src/a.ts"]);
    expect(out.checked).toEqual(["docs/feature.noma"]);
    expect(out.files.map((f) => f.file)).not.toContain("docs/main-only.noma");
    expect(out.drift.specs[0]!.unreconciled.map((f) => f.path)).toEqual(["docs/feature.noma", "src/a.ts"]);
    expect(code).toBe(0);
  });
});

describe("ci: where the base comes from", () => {
  it("a pull_request event file names the base; the merge commit actions/checkout builds uses HEAD^1", async () => {
    const repo = await ciRepo();
    writeTree(repo, { "src/a.ts": "a2\n" });
    const featureTip = commitAll(repo, "feature");
    const mainSha = git(repo, ["rev-parse", "main"]).trim();
    const event = join(tempDir(), "event.json");
    writeFileSync(event, JSON.stringify({ pull_request: { number: 1, base: { sha: mainSha, ref: "main" }, head: { sha: featureTip } } }));
    const env = { GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: "pull_request" };
    const r = ciJson(repo, [], env);
    expect(r.out.base).toMatchObject({ ref: mainSha, source: "pull_request", merge_base: mainSha });
    expect(r.out.changed_files).toEqual(["src/a.ts"]);

    git(repo, ["checkout", "-q", "--detach", "main"]);
    git(repo, ["merge", "-q", "--no-ff", "-m", "Merge feature into main", "feature"]);
    const merged = ciJson(repo, [], env);
    expect(merged.out.base).toMatchObject({ ref: mainSha, source: "pull_request-merge-commit" });
    expect(merged.out.changed_files).toEqual(["src/a.ts"]);
  });

  it("merge_group and push events; a new branch's all-zero before falls back to the default branch", async () => {
    const repo = await ciRepo();
    writeTree(repo, { "src/a.ts": "a2\n" });
    commitAll(repo, "one");
    const one = git(repo, ["rev-parse", "HEAD"]).trim();
    writeTree(repo, { "src/b.ts": "b2\n" });
    commitAll(repo, "two");
    const event = join(tempDir(), "event.json");
    writeFileSync(event, JSON.stringify({ merge_group: { base_sha: one, head_sha: "f".repeat(40) } }));
    expect(ciJson(repo, [], { GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: "merge_group" }).out).toMatchObject({
      base: { source: "merge_group", ref: one },
      changed_files: ["src/b.ts"],
    });
    writeFileSync(event, JSON.stringify({ before: one, after: "a".repeat(40) }));
    expect(ciJson(repo, [], { GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: "push" }).out).toMatchObject({ base: { source: "push", ref: one } });
    writeFileSync(event, JSON.stringify({ before: "0".repeat(40) }));
    expect(ciJson(repo, [], { GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: "push" }).out).toMatchObject({
      base: { source: "default-branch", ref: "main" },
      changed_files: ["src/a.ts", "src/b.ts"],
    });
    expect(ciJson(repo).out.base).toMatchObject({ source: "default-branch", ref: "main" });
  });

  it("exit 2: refs that look like options, unknown refs, unreadable event files, no base at all, no repository", async () => {
    const repo = await ciRepo();
    const dash = runCli(["ci", "--base=--output=/tmp/x"], { cwd: repo });
    expect(dash.code).toBe(2);
    expect(dash.stderr).toContain('refs starting with "-"');
    const unknown = runCli(["ci", "--base", "nope"], { cwd: repo });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown ref "nope"');
    const event = join(tempDir(), "event.json");
    writeFileSync(event, "{oops");
    const bad = runCli(["ci"], { cwd: repo, env: { GITHUB_EVENT_PATH: event } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("cannot read the GitHub event file");
    const lonely = tempRepo({ "a.txt": "a\n" });
    git(lonely, ["branch", "-m", "trunk"]);
    const none = runCli(["ci"], { cwd: lonely });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("pass --base");
    const outside = runCli(["ci"], { cwd: tempDir() });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("not inside a git repository");
  });
});

describe("ci: shallow clones", () => {
  it("deepens a shallow clone until the merge-base is there", async () => {
    const origin = await ciRepo();
    for (let i = 0; i < 3; i++) {
      writeTree(origin, { "src/a.ts": `a${i}\n` });
      commitAll(origin, `feature ${i}`);
    }
    git(origin, ["checkout", "-q", "main"]);
    for (let i = 0; i < 3; i++) {
      writeTree(origin, { "README.md": `main ${i}\n` });
      commitAll(origin, `main ${i}`);
    }
    const clone = join(tempDir(), "clone");
    git(tempDir(), ["clone", "-q", "--depth=1", "--no-single-branch", "--branch", "feature", `file://${origin}`, clone]);
    expect(git(clone, ["rev-parse", "--is-shallow-repository"]).trim()).toBe("true");
    const r = runCli(["ci", "--base", "origin/main"], { cwd: clone });
    expect(r.stderr).toContain("git fetch --deepen=64");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("src/a.ts");
  });

  it("exits 2 with the fetch-depth hint when deepening does not reach the merge-base", () => {
    // main runs 1,400 commits past the fork point: more than the deepening steps (64 + 256 + 1024).
    const origin = tempRepo({ "f.txt": "0\n" });
    const fork = git(origin, ["rev-parse", "HEAD"]).trim();
    const lines = ["reset refs/heads/main", `from ${fork}`];
    for (let i = 1; i <= 1400; i++) {
      const body = `${i}\n`;
      lines.push(
        "commit refs/heads/main",
        `committer T <t@example.invalid> ${1767225600 + i} +0000`,
        "data 1",
        "m",
        `M 100644 inline f.txt`,
        `data ${body.length}`,
        body.slice(0, -1),
      );
    }
    git(origin, ["fast-import", "--quiet"], `${lines.join("\n")}\n`);
    git(origin, ["branch", "feature", fork]);
    const clone = join(tempDir(), "clone");
    git(tempDir(), ["clone", "-q", "--depth=1", "--no-single-branch", "--branch", "feature", `file://${origin}`, clone]);
    const r = runCli(["ci", "--base", "origin/main"], { cwd: clone });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("deepened 3 times");
    expect(r.stderr).toContain("fetch-depth: 0");
  });
});

describe("ci: documents, transcripts and specs at HEAD", () => {
  it("judges changed documents and specs as committed, not the work tree", async () => {
    const repo = await ciRepo();
    writeTree(repo, { "docs/new.noma": BROKEN, ".notarai/bad.spec.yaml": 'schema_version: "0.7"\nintent: x\nartifacts: {}\nbehaviours: []\n' });
    commitAll(repo, "broken");
    writeTree(repo, { "docs/new.noma": VALID }); // fixed but not committed: HEAD is what the PR carries
    const { code, out } = ciJson(repo, ["--base", "main"]);
    expect(code).toBe(1);
    expect(out.files.find((f) => f.file === "docs/new.noma")!.diagnostics[0]).toMatchObject({ code: "broken-reference", pos: { line: 3 } });
    expect(codes(out, ".notarai/bad.spec.yaml")).toContain("spec-unknown-key");
  });

  it("a transcript rewritten (not appended) in the PR is an error at the first rewritten line", async () => {
    const { repo, afterFirst, firstLine } = await twoPatchesOnMain();
    // Rewrite history: drop the second record, then patch again (a valid chain on its own).
    writeFileSync(join(repo, "docs/plan.noma"), afterFirst);
    writeFileSync(join(repo, "docs/plan.noma.patches"), firstLine);
    patch(repo, "docs/plan.noma", [0.8]);
    commitAll(repo, "rewrite");
    const { code, out } = ciJson(repo, ["--base", "main"]);
    expect(code).toBe(1);
    const d = out.files.find((f) => f.file === "docs/plan.noma.patches")!.diagnostics.filter((x) => x.code !== "drift-unreconciled");
    expect(d).toEqual([expect.objectContaining({ severity: "error", code: "transcript-rewritten", pos: { line: 2, column: 1 } })]);
    expect(d[0]!.message).toContain("Line 2 differs from its version at the merge-base");
  });

  it("appended transcripts verify against their documents at HEAD; a hand edit is a warning (an error under strict)", async () => {
    const repo = await ciRepo();
    patch(repo, "docs/plan.noma", [0.6]);
    await reconcileAll(repo);
    commitAll(repo, "patched");
    expect(ciJson(repo, ["--base", "main"]).code).toBe(0);
    writeTree(repo, { "docs/plan.noma": CLAIM.replace("A claim.", "Hand edit.") });
    commitAll(repo, "hand edit");
    const warn = ciJson(repo, ["--base", "main"]);
    expect(codes(warn.out, "docs/plan.noma.patches")).toEqual(["transcript-document-mismatch"]);
    expect(warn.out.files.find((f) => f.file === "docs/plan.noma.patches")!.diagnostics[0]!.severity).toBe("warning");
    writeTree(repo, { ".notarai/config.yaml": "transcripts: strict\n" });
    commitAll(repo, "strict");
    expect(ciJson(repo, ["--base", "main"]).code).toBe(1);
  });
});

describe("ci: symbolic links", () => {
  it("a document committed as a symbolic link is file-unreadable, not its target path read as text", async () => {
    const repo = await ciRepo();
    symlinkSync("/etc/hostname", join(repo, "docs/out.noma"));
    commitAll(repo, "a link out");
    const { code, out } = ciJson(repo, ["--base", "main"]);
    expect(code).toBe(1);
    expect(out.checked).toContain("docs/out.noma");
    const d = out.files.find((f) => f.file === "docs/out.noma")!.diagnostics.filter((x) => x.code !== "drift-unreconciled");
    expect(d).toEqual([expect.objectContaining({ severity: "error", code: "file-unreadable" })]);
    expect(d[0]!.message).toContain('Committed as a symbolic link to "/etc/hostname", not a regular file');
  });
});

describe("ci: drift", () => {
  it("reports each unreconciled governed file with its spec and glob: a warning, an error under drift: error", async () => {
    const repo = await ciRepo();
    writeTree(repo, { "src/a.ts": "a2\n", "src/new.ts": "n\n", "README.md": "changed, ungoverned\n" });
    commitAll(repo, "work");
    const warn = ciJson(repo, ["--base", "main"]);
    expect(warn.code).toBe(0);
    expect(warn.out.affected_specs).toEqual([SPEC_PATH]);
    expect(warn.out.drift.specs[0]!.unreconciled.map((f) => [f.path, f.glob, f.category, f.reason])).toEqual([
      ["src/a.ts", "src/**", "code", "hash-differs"],
      ["src/new.ts", "src/**", "code", "not-in-snapshot"],
    ]);
    expect(warn.out.files.find((f) => f.file === "src/a.ts")!.diagnostics).toEqual([
      {
        severity: "warning",
        code: "drift-unreconciled",
        message: `Governed by ${SPEC_PATH} (through "src/**", code) and not reconciled: changed since the snapshot.`,
      },
    ]);
    const text = runCli(["ci", "--base", "main"], { cwd: repo });
    expect(text.stdout).toContain(`  ${SPEC_PATH}: 2 unreconciled, 0 reconciled\n    src/a.ts  via "src/**" (code; modified; hash-differs)`);

    writeTree(repo, { ".notarai/config.yaml": "drift: error\n" });
    commitAll(repo, "strict drift");
    const err = ciJson(repo, ["--base", "main"]);
    expect(err.code).toBe(1);
    expect(err.out.drift.severity).toBe("error");
    expect(err.env.summary.errors).toBe(2);

    await reconcileAll(repo);
    commitAll(repo, "reconciled");
    const clean = ciJson(repo, ["--base", "main"]);
    expect(clean.code).toBe(0);
    expect(clean.out.drift.specs[0]!.unreconciled).toEqual([]);
  });
});

describe("ci: formats and GitHub integration", () => {
  async function noisyRepo(): Promise<string> {
    const repo = await ciRepo();
    const tree: Record<string, string> = {};
    for (let i = 0; i < 12; i++) tree[`docs/broken-${String(i).padStart(2, "0")}.noma`] = BROKEN;
    for (let i = 0; i < 12; i++) tree[`src/f${String(i).padStart(2, "0")}.ts`] = `${i}\n`;
    writeTree(repo, tree);
    commitAll(repo, "noisy");
    return repo;
  }

  it("github: errors first, at most 10 per type, then one notice; step summary and outputs", async () => {
    const repo = await noisyRepo();
    const dir = tempDir();
    const summary = join(dir, "summary.md");
    const output = join(dir, "output.txt");
    writeFileSync(output, "earlier=1\n");
    const r = runCli(["ci", "--base", "main", "--format", "github"], { cwd: repo, env: { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output } });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines.slice(0, 10).every((l) => l.startsWith("::error file=docs/broken-"))).toBe(true);
    expect(lines[0]).toBe(
      '::error file=docs/broken-00.noma,line=3,endLine=5,col=1,title=[broken-reference]::for="nope" on ::evidence points at an id that does not exist.',
    );
    expect(lines.slice(10, 20).every((l) => l.startsWith("::warning file="))).toBe(true);
    expect(lines[20]).toMatch(/^::notice title=noma-reconcile::\d+ more findings are not annotated; the job summary lists them all\.$/);
    expect(lines).toHaveLength(21);
    const md = readFileSync(summary, "utf8");
    expect(md).toContain("## noma-reconcile ci");
    expect(md).toContain("| error | `broken-reference` | `docs/broken-11.noma:3:1` (lines 3-5) |");
    expect(md).toContain("| `.notarai/api.spec.yaml` | `src/f11.ts` | `src/**` | code | added | not-in-snapshot |");
    expect(readFileSync(output, "utf8")).toBe(
      [
        "earlier=1",
        'affected-specs=[".notarai/api.spec.yaml"]',
        "affected-spec-count=1",
        "errors=12",
        "warnings=24",
        "drift=24",
        "files-checked=12",
        "result=fail",
        "",
      ].join("\n"),
    );
  });

  it("the step summary stays under 1 MiB however many findings there are", async () => {
    const { renderCiSummary } = await import("../../../src/check/commit/render-ci-report.js");
    const results = Array.from({ length: 20_000 }, (_, i) => ({
      file: `docs/d${i}.noma`,
      diagnostics: [{ severity: "error" as const, code: "broken-reference", message: "x".repeat(80), pos: { line: 1, column: 1 } }],
    }));
    const unreconciled = Array.from({ length: 20_000 }, (_, i) => ({
      path: `src/${i}.ts`,
      glob: "src/**",
      category: "code",
      change: "added" as const,
      reason: "not-in-snapshot" as const,
      current_blake3: null,
      snapshot_blake3: null,
    }));
    const md = renderCiSummary({
      base: { ref: "main", source: "option", commit: "a".repeat(40), merge_base: "b".repeat(40) },
      head: "c".repeat(40),
      changed_files: [],
      checked: [],
      results,
      affected_specs: [SPEC_PATH],
      drift: {
        severity: "warning",
        snapshot: { present: true, git_hash: null, ancestry: null, problem: null },
        specs: [{ spec_path: SPEC_PATH, unreconciled, reconciled: [] }],
        unreconciled: 20_000,
      },
      config: { transcripts: "warn", drift: "warning", exclude: [], workspace: DEFAULT_WORKSPACE_CONFIG },
      uncommitted: { count: 0, paths: [] },
    });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(1024 * 1024);
    expect(md).toContain("more");
  });

  it("the step summary's 1 MiB is counted in bytes: non-ASCII messages are cut by whole rows, never inside a character", async () => {
    const { renderCiSummary } = await import("../../../src/check/commit/render-ci-report.js");
    // 2,000 findings of 300 Japanese characters: 0.7 M characters, 1.9 MB of UTF-8.
    const results = Array.from({ length: 2_000 }, (_, i) => ({
      file: `docs/d${i}.noma`,
      diagnostics: [{ severity: "error" as const, code: "broken-reference", message: `${i}:${"日本語".repeat(100)}`, pos: { line: 1, column: 1 } }],
    }));
    const md = renderCiSummary({
      base: { ref: "main", source: "option", commit: "a".repeat(40), merge_base: "b".repeat(40) },
      head: "c".repeat(40),
      changed_files: [],
      checked: [],
      results,
      affected_specs: [],
      drift: { severity: "warning", snapshot: { present: true, git_hash: null, ancestry: null, problem: null }, specs: [], unreconciled: 0 },
      config: { transcripts: "warn", drift: "warning", exclude: [], workspace: DEFAULT_WORKSPACE_CONFIG },
      uncommitted: { count: 0, paths: [] },
    });
    expect(md.length).toBeLessThan(1024 * 1024);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(1024 * 1024);
    expect(md).not.toContain("\uFFFD");
    const rows = md.split("\n").filter((l) => l.startsWith("| error |"));
    expect(rows.length).toBeGreaterThan(500);
    for (const row of rows) expect(row).toMatch(/^\| error \| `broken-reference` \| `docs\/d\d+\.noma:1:1` \| \d+:(日本語){100} \|$/);
    expect(md).toMatch(new RegExp(`…and ${2_000 - rows.length} more \\(summary size limit reached\\)\\.`));
  });

  it("json is a versioned envelope; sarif has rules for every code, drift included; --sarif-file; text", async () => {
    const repo = await noisyRepo();
    const { env } = ciJson(repo, ["--base", "main"]);
    expect(Object.keys(env)).toEqual(["schema", "tool", "command", "ok", "summary", "result", "warnings"]);
    expect(env).toMatchObject({
      schema: "noma-reconcile/ci@2",
      command: "ci",
      ok: false,
      summary: { files: 12, errors: 12, warnings: 24, drift: 24, affected_specs: 1 },
    });
    const sarifFile = join(tempDir(), "out.sarif");
    const s = runCli(["ci", "--base", "main", "--format", "sarif", "--sarif-file", sarifFile], { cwd: repo });
    const log = JSON.parse(s.stdout);
    expect(log.version).toBe("2.1.0");
    expect(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(["broken-reference", "drift-unreconciled"]);
    expect(log.runs[0].tool.driver.rules[1].shortDescription.text).toContain("not reconciled");
    expect(JSON.parse(readFileSync(sarifFile, "utf8"))).toEqual(log);
    const drifted = log.runs[0].results.find((x: { ruleId: string }) => x.ruleId === "drift-unreconciled");
    expect(drifted.locations[0].physicalLocation.artifactLocation.uri).toMatch(/^(src|docs)\//);
    const text = runCli(["ci", "--base", "main"], { cwd: repo });
    expect(text.stdout).toContain("ERROR [broken-reference] docs/broken-00.noma:3:1:");
    expect(text.stdout).toContain("12 errors, 24 warnings.");
  });

  it("--fail-on warning fails on drift warnings; --fail-on never always passes", async () => {
    const repo = await ciRepo();
    writeTree(repo, { "src/a.ts": "a2\n" });
    commitAll(repo, "drift only");
    expect(runCli(["ci", "--base", "main"], { cwd: repo }).code).toBe(0);
    expect(runCli(["ci", "--base", "main", "--fail-on", "warning"], { cwd: repo }).code).toBe(1);
    writeTree(repo, { "docs/x.noma": BROKEN });
    commitAll(repo, "broken");
    expect(runCli(["ci", "--base", "main", "--fail-on", "never"], { cwd: repo }).code).toBe(0);
    expect(runCli(["ci", "--base", "main", "--fail-on", "sometimes"], { cwd: repo }).code).toBe(2);
  });
});
