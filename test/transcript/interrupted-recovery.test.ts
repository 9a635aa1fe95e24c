/**
 * A patch killed between its transcript write and its document write leaves
 * applied records whose bytes never reached the document. The next patch
 * heals it: before its own records it appends a `recover_interrupted` record
 * (noop, pre = post = the document's real state, naming the abandoned
 * op_ids), so the state chain continues and the history verifies for good —
 * `transcript verify --strict`, `--base` replay, v1.0 schema, `check`.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli.js";
import { patchInProcess } from "../helpers/patch-in-process.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { chainLines } from "../../src/transcript/transcript-record.js";
import { transcriptSchemas } from "../../src/transcript/transcript-schema.js";
import { isTranscriptRecord } from "../../src/transcript/is-transcript-record.js";
import { verifyTranscript } from "../../src/transcript/verify-transcript.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";

const DOC = '::claim{id="c1" confidence=0.5}\nBody.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
/** The v1.0 transcript record as a zod schema (§5): what src/internal.ts exports as TranscriptRecordSchema. */
const TranscriptRecordSchema = transcriptSchemas().record;
const op = (value: number) => JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value });

function killedPatch(repo: string, opText: string, point: string): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [CLI, "patch", "d.noma", "--op", opText], {
      cwd: repo,
      env: { ...process.env, NOMA_RECONCILE_TEST_CRASH_AT: point },
      stdio: "ignore",
    });
    c.on("error", reject);
    c.on("close", (_code, signal) => resolve(signal));
  });
}

function records(repo: string): Array<Record<string, unknown>> {
  return readFileSync(join(repo, "d.noma.patches"), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function expectHealthy(repo: string): void {
  const strict = runCli(["transcript", "verify", "d.noma", "--strict", "--format", "json"], { cwd: repo });
  expect(strict.code, strict.stdout).toBe(0);
  expect(JSON.parse(strict.stdout).result.findings.filter((f: { severity: string }) => f.severity !== "info")).toEqual([]);
  const replay = runCli(["transcript", "verify", "d.noma", "--strict", "--base", "base.noma"], { cwd: repo });
  expect(replay.code, replay.stdout).toBe(0);
  expect(records(repo).length).toBeGreaterThan(0);
  for (const r of records(repo)) {
    expect(TranscriptRecordSchema.safeParse(r).success, JSON.stringify(r)).toBe(true);
    expect(isTranscriptRecord(r), JSON.stringify(r)).toBe(true);
  }
  const check = runCli(["check", "d.noma", "d.noma.patches"], { cwd: repo });
  expect(check.code, check.stdout + check.stderr).toBe(0);
  // A recovery that holds is history: transcript verify lists it, check does not repeat it.
  expect(check.stdout).toBe("✓ No issues found.\n");
  expect(strict.stdout).toContain("transcript-recovered");
}

describe("an interrupted patch, then a normal patch", () => {
  it.each(["after-transcript", "before-document-rename"])("killed %s: the next patch records the recovery and the history verifies for good", async (point) => {
    const repo = tempRepo({ "d.noma": DOC, "base.noma": DOC });
    patchInProcess(repo, "d.noma", JSON.parse(op(0.6)));
    const before = readFileSync(join(repo, "d.noma"), "utf8");
    expect(await killedPatch(repo, op(0.7), point)).toBe("SIGKILL");
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(before);
    // The interruption is reported as such…
    const v = runCli(["transcript", "verify", "d.noma", "--format", "json"], { cwd: repo });
    expect(JSON.parse(v.stdout).result.findings.map((f: { code: string }) => f.code)).toEqual(["transcript-interrupted"]);
    const abandoned = records(repo)[1]!;

    // …and healed by the next patch.
    const next = runCli(["patch", "d.noma", "--op", op(0.8)], { cwd: repo });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toMatch(/recovered: the patch recorded on line 2 of d\.noma\.patches never reached the document/);
    expect(next.stdout).toContain("transcript: 2 records appended");
    const all = records(repo);
    expect(all.map((r) => (r["op"] as { op: string }).op)).toEqual(["update_attribute", "update_attribute", "recover_interrupted", "update_attribute"]);
    const recovery = all[2]!;
    expect(recovery).toMatchObject({
      patch_result: "noop",
      actor: { kind: "tool", name: "noma-reconcile" },
      pre_sha256: abandoned["pre_sha256"],
      post_sha256: abandoned["pre_sha256"],
      parent_op_id: abandoned["op_id"],
      op: { op: "recover_interrupted", abandoned_op_ids: [abandoned["op_id"]], recorded_sha256: abandoned["post_sha256"] },
    });
    expect(JSON.stringify(recovery["diagnostics"])).toContain("interrupted_patch_recovered");
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toContain("confidence=0.8");
    expectHealthy(repo);
    // Later patches keep it healthy; the recovery is written once.
    patchInProcess(repo, "d.noma", JSON.parse(op(0.9)));
    expect(records(repo).filter((r) => (r["op"] as { op: string }).op === "recover_interrupted")).toHaveLength(1);
    expectHealthy(repo);
    // The pre-commit hook and ci judge the transcript the same way.
    git(repo, ["add", "-A"]);
    const staged = runCli(["check", "--staged"], { cwd: repo });
    expect(staged.code, staged.stdout + staged.stderr).toBe(0);
    // …and show the change's recovery to its reviewer, once; committed, it is history.
    expect(staged.stdout).toMatch(/^INFO \[transcript-recovered\] d\.noma\.patches:3:1: This change records the recovery of an interrupted patch on line 2: /m);
    expect(staged.stdout.match(/transcript-recovered/g)).toHaveLength(1);
    git(repo, ["commit", "-qm", "patched", "--no-verify"]);
    expect(runCli(["check", "--staged"], { cwd: repo }).stdout).not.toContain("transcript-recovered");
  });

  it("an interrupted op list, interrupted twice in a row, healed by an MCP patch_block", async () => {
    const repo = tempRepo({ "d.noma": DOC, "base.noma": DOC });
    const list = JSON.stringify([JSON.parse(op(0.1)), { op: "update_attribute", id: "e1", key: "weight", value: 2 }]);
    expect(await killedPatch(repo, list, "after-transcript")).toBe("SIGKILL");
    expect(await killedPatch(repo, op(0.2), "before-document-rename")).toBe("SIGKILL");
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(DOC);
    const c = new McpClient(repo);
    const r = await c.ok<{ ok: boolean; transcript_entries: Array<{ op: { op: string; abandoned_op_ids?: string[] } }> }>("patch_block", {
      file: "d.noma",
      op: JSON.parse(op(0.3)),
    });
    expect(r.ok).toBe(true);
    expect(r.transcript_entries.map((e) => e.op.op)).toEqual(["recover_interrupted", "update_attribute"]);
    await c.close();
    const all = records(repo);
    // The second killed patch healed the first one before its own record; the MCP patch healed the second.
    expect(all.map((x) => (x["op"] as { op: string }).op)).toEqual([
      "update_attribute",
      "update_attribute",
      "recover_interrupted",
      "update_attribute",
      "recover_interrupted",
      "update_attribute",
    ]);
    expect((all[2]!["op"] as { abandoned_op_ids: string[] }).abandoned_op_ids).toEqual([all[0]!["op_id"], all[1]!["op_id"]]);
    expectHealthy(repo);
  });

  it("an edit outside the protocol is not taken for an interruption: no recovery, the state gap stays", () => {
    const repo = tempRepo({ "d.noma": DOC, "base.noma": DOC });
    patchInProcess(repo, "d.noma", JSON.parse(op(0.6)));
    writeFileSync(join(repo, "d.noma"), `${readFileSync(join(repo, "d.noma"), "utf8")}\nEdited by hand.\n`);
    const r = runCli(["patch", "d.noma", "--op", op(0.7)], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/recovered/);
    expect(records(repo).map((x) => (x["op"] as { op: string }).op)).not.toContain("recover_interrupted");
    const v = runCli(["transcript", "verify", "d.noma", "--strict", "--format", "json"], { cwd: repo });
    expect(v.code).toBe(1);
    expect(JSON.parse(v.stdout).result.findings.map((f: { code: string }) => f.code)).toContain("transcript-state-gap");
  });

  it("a forged recovery record (hiding an outside edit) is an error", () => {
    const repo = tempRepo({ "d.noma": DOC });
    patchInProcess(repo, "d.noma", JSON.parse(op(0.6)));
    const [first] = records(repo);
    const edited = `${readFileSync(join(repo, "d.noma"), "utf8")}\nEdited by hand.\n`;
    writeFileSync(join(repo, "d.noma"), edited);
    const sha = (s: string) => createHash("sha256").update(s).digest("hex");
    const forged = {
      ...first!,
      op_id: "forged",
      patch_result: "noop",
      pre_sha256: sha(edited),
      post_sha256: sha(edited),
      pre_sha: sha(edited).slice(0, 8),
      post_sha: sha(edited).slice(0, 8),
      diagnostics: [],
      pre_validation: "ok",
      post_validation: "ok",
      op: { op: "recover_interrupted", abandoned_op_ids: [first!["op_id"]], recorded_sha256: first!["post_sha256"] },
    };
    const text = readFileSync(join(repo, "d.noma.patches"), "utf8");
    writeFileSync(join(repo, "d.noma.patches"), text + chainLines([forged], text).join(""));
    const report = verifyTranscript(readFileSync(join(repo, "d.noma.patches"), "utf8"), edited, { strict: true });
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => f.code)).toContain("transcript-bad-recovery");
  });
});
