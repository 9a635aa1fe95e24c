/**
 * `patch`, `transcript verify` and `schema`, spawned as real processes:
 * - exit codes 0 (applied, noop) / 1 (rejected) / 2 (usage), text and json output;
 * - concurrent patch processes on one document never lose an update and never
 *   interleave transcript lines;
 * - a process killed at any point leaves the document old or new, never torn,
 *   and `transcript verify` says which;
 * - JSON Schemas generated from the zod schemas.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli.js";
import { patchInProcess } from "../helpers/patch-in-process.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { parseNoma } from "../../src/noma/parse-noma.js";
import { verifyTranscript } from "../../src/transcript/verify-transcript.js";

const DOC = '::claim{id="c1" confidence=0.5}\nBody.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
const sha = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");

function spawnCli(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): { done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>; kill: () => void } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { done, kill: () => child.kill("SIGKILL") };
}

/** What JSON.parse says of `text` (its wording is V8's). */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${text} parses`);
}

describe("patch", () => {
  it("applies, records and reports (text), exit 0", () => {
    const repo = tempRepo({ "docs/d.noma": DOC });
    const r = runCli(
      ["patch", "docs/d.noma", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}', "--actor-name", "ana", "--reason", "tune"],
      { cwd: repo },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^applied 1 of 1 ops to docs\/d\.noma \([0-9a-f]{8} → [0-9a-f]{8}\); validation: pre ok, post ok\n {2}1\. update_attribute c1: applied\n/,
    );
    expect(r.stdout).toContain("transcript: 1 record appended to docs/d.noma.patches");
    expect(readFileSync(join(repo, "docs/d.noma"), "utf8")).toContain("confidence=0.9");
    const rec = JSON.parse(readFileSync(join(repo, "docs/d.noma.patches"), "utf8"));
    expect(rec).toMatchObject({ actor: { kind: "human", name: "ana" }, reason: "tune", patch_result: "applied" });
  });

  it("noop exits 0, rejection exits 1 and names the code; nothing is written for either", () => {
    const repo = tempRepo({ "d.noma": DOC });
    const noop = runCli(["patch", "d.noma", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.5}'], { cwd: repo });
    expect(noop.code).toBe(0);
    expect(noop.stdout).toMatch(/^noop: d\.noma is unchanged/);
    const rej = runCli(["patch", "d.noma", "--op", '[{"op":"delete_block","id":"e1"},{"op":"delete_block","id":"zz"}]', "--format", "json"], { cwd: repo });
    expect(rej.code).toBe(1);
    const out = JSON.parse(rej.stdout);
    expect(out).toMatchObject({ schema: "noma-reconcile/patch@2", ok: false, result: { outcome: "rejected", error: { code: "target_missing", op_index: 1 } } });
    expect(out.result.records.map((r: { patch_result: string }) => r.patch_result)).toEqual(["rejected", "rejected"]);
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(DOC);
  });

  it("reads ops from a file or stdin; --dry-run writes nothing", () => {
    const repo = tempRepo({ "d.noma": DOC, "ops.json": '[{"op":"delete_block","id":"e1"}]' });
    const dry = runCli(["patch", "d.noma", "--ops", "ops.json", "--dry-run"], { cwd: repo });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^dry run: applied/);
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(DOC);
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
    const stdin = runCli(["patch", "d.noma", "--ops", "-"], { cwd: repo, input: '{"op":"delete_block","id":"e1"}' });
    expect(stdin.code).toBe(0);
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe('::claim{id="c1" confidence=0.5}\nBody.\n::\n');
  });

  it("usage errors exit 2 and write nothing", () => {
    const repo = tempRepo({ "d.noma": DOC });
    const outside = join(tempDir(), "x.noma");
    writeFileSync(outside, DOC);
    const op = '{"op":"delete_block","id":"e1"}';
    const usage = "\nRun `noma-reconcile patch --help` for usage.\n";
    const exactlyOne = "noma-reconcile: give exactly one of --op '<json>' or --ops <file> (use --ops - for stdin)";
    const cases: Array<[string[], string]> = [
      [["patch", "d.noma"], `${exactlyOne}${usage}`],
      [["patch", "d.noma", "--op", "{}", "--ops", "x.json"], `${exactlyOne}${usage}`],
      [["patch", "d.noma", "--op", "{not json"], `noma-reconcile: --op is not valid JSON: ${jsonError("{not json")}${usage}`],
      [["patch", "d.noma", "--op", "[]"], `noma-reconcile: --op holds an empty op list; give at least one op.${usage}`],
      [["patch", "d.noma", "--ops", "missing.json"], `noma-reconcile: --ops missing.json: no such file${usage}`],
      [["patch", outside, "--op", op], `noma-reconcile: ${outside}: path is outside the repository (${repo})${usage}`],
      [["patch", "missing.noma", "--op", op], "noma-reconcile: missing.noma: no such document\n"],
      [["patch", "d.noma", "--op", op, "--actor-kind", "robot"], `noma-reconcile: --actor-kind must be one of human, agent, tool; got "robot"${usage}`],
      [["patch", "d.noma", "--op", op, "--expected-sha", "xyz"], `noma-reconcile: --expected-sha must be hex (8–64 characters); got "xyz"${usage}`],
    ];
    for (const [args, stderr] of cases) expect(runCli(args, { cwd: repo }), args.join(" ")).toEqual({ code: 2, stdout: "", stderr });
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(DOC);
    expect(readFileSync(outside, "utf8")).toBe(DOC);
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
  });

  it("a book manifest patches its chapters (test/patch/book-patch.test.ts); an id no chapter holds is target_missing, and the manifest gets no transcript", () => {
    const repo = tempRepo({ "b.noma.yml": "chapters: [a.noma]\n", "a.noma": "# A\n" });
    const r = runCli(["patch", "b.noma.yml", "--op", '{"op":"delete_block","id":"x"}', "--format", "json"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).result.error).toEqual({ code: "target_missing", message: 'id "x" is in no chapter of b.noma.yml.', op_index: 0 });
    expect(existsSync(join(repo, "b.noma.yml.patches"))).toBe(false);
    expect(existsSync(join(repo, "a.noma.patches"))).toBe(false);
    const sha = runCli(["patch", "b.noma.yml", "--op", '{"op":"delete_block","id":"x"}', "--expected-sha", "abcdef12"], { cwd: repo });
    expect(sha.code).toBe(2);
    expect(sha.stderr).toContain("--expected-sha names one document's state; a book has one per chapter");
  });
});

describe("transcript verify", () => {
  it("passes a clean history, fails a tampered one, replays from a base; exit 2 without a transcript", () => {
    const repo = tempRepo({ "d.noma": DOC, "base.noma": DOC });
    expect(runCli(["transcript", "verify", "d.noma"], { cwd: repo }).code).toBe(2);
    // The history verify is run on, made in process (test/helpers/patch-in-process.ts): what three `patch` runs write.
    for (const v of [0.6, 0.7, 0.8]) patchInProcess(repo, "d.noma", { op: "update_attribute", id: "c1", key: "confidence", value: v });
    const clean = runCli(["transcript", "verify", "d.noma", "--base", "base.noma"], { cwd: repo });
    expect(clean).toMatchObject({
      code: 0,
      stdout: "✓ d.noma.patches: 3 records (3 applied), chain intact, document matches, replay reproduces it byte for byte.\n",
    });
    const t = join(repo, "d.noma.patches");
    writeFileSync(t, readFileSync(t, "utf8").replace('"value":0.7', '"value":0.75'));
    const bad = runCli(["transcript", "verify", "d.noma", "--format", "json"], { cwd: repo });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).result.findings.map((f: { code: string }) => f.code)).toEqual(
      expect.arrayContaining(["transcript-seal-broken", "transcript-chain-broken"]),
    );
  });
});

describe("concurrency", () => {
  it("eight processes patching one document at once lose no update and never interleave records", async () => {
    const claims = Array.from({ length: 8 }, (_, i) => `::claim{id="c${i}"}\nClaim ${i}.\n::\n`).join("\n");
    const repo = tempRepo({ "d.noma": claims });
    const runs = Array.from(
      { length: 8 },
      (_, i) =>
        spawnCli(
          [
            "patch",
            "d.noma",
            "--op",
            JSON.stringify([
              { op: "update_attribute", id: `c${i}`, key: "n", value: i },
              { op: "add_comment", id: `cm${i}`, target: `c${i}`, content: `from ${i}` },
            ]),
          ],
          repo,
        ).done,
    );
    const results = await Promise.all(runs);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(repo, "d.noma"), "utf8");
    const doc = parseNoma(text);
    for (let i = 0; i < 8; i++) {
      expect(doc.nodeById.get(`c${i}`)?.type === "directive" && (doc.nodeById.get(`c${i}`) as { attrs: Record<string, unknown> }).attrs["n"]).toBe(i);
      expect(doc.nodeById.has(`cm${i}`)).toBe(true);
    }
    const transcript = readFileSync(join(repo, "d.noma.patches"), "utf8");
    const report = verifyTranscript(transcript, text);
    expect(report).toMatchObject({ ok: true, records: 16, applied: 16, findings: [] });
    expect(readdirSync(repo).filter((f) => f.endsWith(".lock") || f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("a process killed mid-patch", () => {
  const OP = JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value: 0.9 });

  it.each(["after-transcript", "before-document-rename"])("at %s leaves the old document, and verify names the interrupted patch", async (point) => {
    const repo = tempRepo({ "d.noma": DOC });
    const r = await spawnCli(["patch", "d.noma", "--op", OP], repo, { NOMA_RECONCILE_TEST_CRASH_AT: point }).done;
    expect(r.signal).toBe("SIGKILL");
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(DOC);
    const v = runCli(["transcript", "verify", "d.noma", "--format", "json"], { cwd: repo });
    expect(v.code).toBe(1);
    expect(JSON.parse(v.stdout).result.findings).toEqual([expect.objectContaining({ code: "transcript-interrupted" })]);
    // The dead process's lock is stale: the next patch goes through.
    const next = runCli(["patch", "d.noma", "--op", OP], { cwd: repo });
    expect(next.code, next.stderr).toBe(0);
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toContain("confidence=0.9");
  });

  it("at random moments leaves the document old or new, never torn, and verify tells which", async () => {
    const big = Array.from({ length: 4000 }, (_, i) => `::claim{id="c${i}" confidence=0.5}\nClaim number ${i} with some text.\n::\n`).join("\n");
    const repo = tempRepo({ "d.noma": big });
    let current = big;
    const outcomes = { old: 0, new: 0 };
    for (let round = 0; round < 12; round++) {
      const value = round + 1;
      const p = spawnCli(["patch", "d.noma", "--op", JSON.stringify({ op: "update_attribute", id: "c2000", key: "v", value })], repo);
      await new Promise((res) => setTimeout(res, 40 + ((round * 37) % 200)));
      p.kill();
      await p.done;
      const text = readFileSync(join(repo, "d.noma"), "utf8");
      const isOld = sha(text) === sha(current);
      const isNew = parseNoma(text).nodeById.get("c2000")!.type === "directive" && text.includes(`id="c2000" confidence=0.5 v=${value}}`);
      expect(isOld || isNew, `round ${round}: the document is neither the old nor the new state`).toBe(true);
      expect(text.length).toBeGreaterThan(big.length - 10);
      const t = join(repo, "d.noma.patches");
      if (existsSync(t)) {
        const report = verifyTranscript(readFileSync(t, "utf8"), text);
        const codes = report.findings.filter((f) => f.severity === "error").map((f) => f.code);
        // Either everything checks out, or the only complaint is an interrupted patch whose write did not land.
        expect(
          codes.every((c) => c === "transcript-interrupted"),
          JSON.stringify(report.findings),
        ).toBe(true);
        if (codes.length > 0) expect(isOld).toBe(true);
      }
      if (isNew) outcomes.new++;
      else outcomes.old++;
      current = text;
    }
    expect(outcomes.old + outcomes.new).toBe(12);
  });
});

describe("schema", () => {
  it("prints JSON Schemas generated from the wire shapes", () => {
    const dir = tempDir();
    const ops = JSON.parse(runCli(["schema", "patch-op"], { cwd: dir }).stdout);
    expect(ops.anyOf).toHaveLength(25);
    expect(ops.anyOf.map((s: { properties: { op: { const: string } } }) => s.properties.op.const)).toContain("move_block");
    const transcript = JSON.parse(runCli(["schema", "transcript"], { cwd: dir }).stdout);
    expect(transcript.required).toEqual(
      expect.arrayContaining(["protocol_version", "op_id", "pre_sha256", "post_sha256", "patch_result", "pre_validation", "post_validation"]),
    );
    const cap = JSON.parse(runCli(["schema", "capability"], { cwd: dir }).stdout);
    expect(cap.properties.nomaAgent.required).toEqual(["version"]);
    expect(runCli(["schema", "nope"], { cwd: dir }).code).toBe(2);
  });
});
