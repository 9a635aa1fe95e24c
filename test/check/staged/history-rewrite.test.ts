/**
 * Transcripts are append-only against history: the pre-commit hook compares
 * each staged transcript with HEAD's committed one (as `ci` compares with the
 * merge-base), so dropping the last records, deleting the transcript while its
 * document stays, truncating and recomputing the chain, or editing record 1
 * and re-sealing are blocked — each of which verifies on its own. Renames are
 * followed (a transcript renamed with its document is compared with the old
 * path's history), by the hook and by `ci`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoTemplates } from "../../helpers/repo-templates.js";
import { runCli } from "../../helpers/run-cli.js";
import { git, tempDir } from "../../helpers/temp-repo.js";
import { chainLines } from "../../../src/transcript/transcript-record.js";
import { verifyTranscript } from "../../../src/transcript/verify-transcript.js";
import { CLAIM, patch } from "./fixtures.js";
import { commit, hookRepo } from "./hook-repo.js";
import { commitAll, twoPatchesOnMain } from "../commit/ci-repo.js";

const DOC = "docs/plan.noma";
const T = `${DOC}.patches`;

const templates = repoTemplates();
/** The states after the first patch, as the template's build saw them (each copy holds the very same transcript). */
let first: { afterFirst: string; firstLine: string } | undefined;

/**
 * A repository whose HEAD holds the document patched twice (two records, committed through the hook), and the states
 * after each patch: built once per file and copied for each test (test/helpers/repo-templates.ts).
 */
function twoPatches(): { repo: string; afterFirst: string; firstLine: string } {
  const repo = templates.copy("two patches", () => {
    const built = hookRepo({ [DOC]: CLAIM });
    patch(built, DOC, [0.6]);
    first = { afterFirst: readFileSync(join(built, DOC), "utf8"), firstLine: readFileSync(join(built, T), "utf8") };
    patch(built, DOC, [0.7]);
    git(built, ["add", "."]);
    expect(commit(built, ["-m", "two patches"]).code).toBe(0);
    return built;
  });
  return { repo, ...first! };
}

/** The transcript and document verify on their own (so only history can catch the rewrite). */
function verifiesAlone(repo: string): void {
  const report = verifyTranscript(readFileSync(join(repo, T), "utf8"), readFileSync(join(repo, DOC), "utf8"), { strict: true });
  expect(report.findings).toEqual([]);
}

function blocked(repo: string, line: number): string {
  const head = git(repo, ["rev-parse", "HEAD"]);
  const r = commit(repo, ["-m", "rewrite"]);
  expect(r.code, r.output).toBe(1);
  expect(r.output).toMatch(new RegExp(`ERROR \\[transcript-rewritten\\] [^\\n]*\\.patches:${line}:1: `));
  expect(r.output).toContain("Commit blocked");
  expect(git(repo, ["rev-parse", "HEAD"])).toBe(head);
  return r.output;
}

/** Re-seal and re-chain every record of a transcript (what a forger with our code can do). */
function reseal(text: string): string {
  const records = text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return chainLines(records, null).join("");
}

describe("pre-commit hook: transcripts are append-only against HEAD", () => {
  it("dropping the last record (document set back to match) is blocked", () => {
    const { repo, afterFirst, firstLine } = twoPatches();
    writeFileSync(join(repo, T), firstLine);
    writeFileSync(join(repo, DOC), afterFirst);
    verifiesAlone(repo);
    git(repo, ["add", "."]);
    expect(blocked(repo, 1)).toMatch(/Line 2 existed at HEAD and was removed/);
  });

  it("truncating and recomputing the chain with a new patch is blocked at the first rewritten line", () => {
    const { repo, afterFirst, firstLine } = twoPatches();
    writeFileSync(join(repo, T), firstLine);
    writeFileSync(join(repo, DOC), afterFirst);
    patch(repo, DOC, [0.8]);
    verifiesAlone(repo);
    git(repo, ["add", "."]);
    expect(blocked(repo, 2)).toMatch(/Line 2 differs from its version at HEAD/);
  });

  it("editing record 1 and re-sealing the whole chain is blocked", () => {
    const { repo } = twoPatches();
    writeFileSync(join(repo, T), reseal(readFileSync(join(repo, T), "utf8").replace('"name":"test"', '"name":"someone else"')));
    verifiesAlone(repo);
    git(repo, ["add", "."]);
    blocked(repo, 1);
  });

  it("deleting the transcript while its document stays is blocked; deleting both is not", () => {
    const { repo } = twoPatches();
    git(repo, ["rm", "-q", T]);
    expect(blocked(repo, 1)).toMatch(/existed at HEAD and was deleted/);
    git(repo, ["rm", "-q", DOC]);
    const r = commit(repo, ["-m", "remove the document and its history"]);
    expect(r.code, r.output).toBe(0);
  });

  it("appending passes; a first commit and a new transcript have nothing to compare with", () => {
    const { repo } = twoPatches();
    patch(repo, DOC, [0.9]);
    git(repo, ["add", "."]);
    expect(commit(repo, ["-m", "append"]).code).toBe(0);
    writeFileSync(join(repo, "docs/new.noma"), CLAIM);
    patch(repo, "docs/new.noma", [0.2]);
    git(repo, ["add", "."]);
    expect(commit(repo, ["-m", "new document with history"]).code).toBe(0);
  });

  it("a transcript renamed with its document is compared with its history at the old path", () => {
    const { repo, afterFirst, firstLine } = twoPatches();
    git(repo, ["mv", DOC, "docs/renamed.noma"]);
    git(repo, ["mv", T, "docs/renamed.noma.patches"]);
    // A plain rename passes.
    const plain = runCli(["check", "--staged"], { cwd: repo });
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    // Renamed, truncated, and the chain recomputed with a new patch: blocked.
    writeFileSync(join(repo, "docs/renamed.noma.patches"), firstLine);
    writeFileSync(join(repo, "docs/renamed.noma"), afterFirst);
    patch(repo, "docs/renamed.noma", [0.8]);
    git(repo, ["add", "-A"]);
    const out = blocked(repo, 2);
    expect(out).toContain("docs/renamed.noma.patches:2:1");
    expect(out).toMatch(/as docs\/plan\.noma\.patches/);
  });

  it("the hook reads HEAD's version only for staged transcripts (nothing else staged: nothing read)", () => {
    const { repo } = twoPatches();
    writeFileSync(join(repo, "src.ts"), "x\n");
    git(repo, ["add", "."]);
    const trace = join(tempDir(), "trace");
    const r = runCli(["check", "--staged"], { cwd: repo, env: { GIT_TRACE: trace } });
    expect(r.code).toBe(0);
    expect(readFileSync(trace, "utf8")).toMatch(/diff --cached/);
    expect(readFileSync(trace, "utf8")).not.toMatch(/cat-file/);
    // A staged transcript: HEAD's version comes in the same single cat-file batch.
    patch(repo, DOC, [0.9]);
    git(repo, ["add", "."]);
    const trace2 = join(tempDir(), "trace");
    expect(runCli(["check", "--staged"], { cwd: repo, env: { GIT_TRACE: trace2 } }).code).toBe(0);
    expect(readFileSync(trace2, "utf8").match(/built-in: git cat-file/g)).toHaveLength(1);
  });
});

describe("ci: follows renames", () => {
  it("a transcript renamed together with its document, then truncated with a recomputed chain, is an error", async () => {
    const { repo, afterFirst, firstLine } = await twoPatchesOnMain();
    git(repo, ["mv", "docs/plan.noma", "docs/moved.noma"]);
    git(repo, ["mv", "docs/plan.noma.patches", "docs/moved.noma.patches"]);
    writeFileSync(join(repo, "docs/moved.noma.patches"), firstLine);
    writeFileSync(join(repo, "docs/moved.noma"), afterFirst);
    patch(repo, "docs/moved.noma", [0.8]);
    commitAll(repo, "rename and rewrite");
    const r = runCli(["ci", "--base", "main", "--format", "json"], { cwd: repo });
    expect(r.code, r.stdout).toBe(1);
    const out = JSON.parse(r.stdout).result as { files: Array<{ file: string; diagnostics: Array<{ code: string; message: string; pos: { line: number } }> }> };
    const d = out.files.find((f) => f.file === "docs/moved.noma.patches")!.diagnostics.filter((x) => x.code === "transcript-rewritten");
    expect(d).toEqual([expect.objectContaining({ code: "transcript-rewritten", pos: { line: 2, column: 1 } })]);
    expect(d[0]!.message).toMatch(/as docs\/plan\.noma\.patches/);
    // A plain rename of both is fine.
    git(repo, ["reset", "-q", "--hard", "HEAD~1"]);
    git(repo, ["mv", "docs/plan.noma", "docs/moved.noma"]);
    git(repo, ["mv", "docs/plan.noma.patches", "docs/moved.noma.patches"]);
    commitAll(repo, "rename");
    const ok = runCli(["ci", "--base", "main", "--format", "json"], { cwd: repo });
    const okOut = JSON.parse(ok.stdout).result as { files: Array<{ file: string; diagnostics: Array<{ code: string }> }> };
    expect(okOut.files.flatMap((f) => f.diagnostics).filter((x) => x.code === "transcript-rewritten")).toEqual([]);
  });
});
