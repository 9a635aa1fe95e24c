/**
 * `transcript accept <doc> --reason TEXT`, through the real CLI: an edit made outside the
 * protocol — left as is, or followed by a patch — is acknowledged by a sealed
 * `accept_outside_edit` record; afterwards `check` and `transcript verify --strict` are clean
 * and verify lists the acknowledgement as information. An unacknowledged gap still fails
 * strict, an edit after accepting is a gap again, a forged acknowledgement is caught, and
 * accept refuses (exit 2, nothing written) when there is nothing to accept.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { acceptOutsideEdits } from "../../src/editing/accept-document.js";
import { patchDocument } from "../../src/editing/patch-document.js";
import { transcriptSchemas } from "../../src/transcript/transcript-schema.js";
import { isTranscriptRecord } from "../../src/transcript/is-transcript-record.js";
import { chainLines } from "../../src/transcript/transcript-record.js";

const DOC = '# Plan\n\n::claim{id="c1" confidence=0.5}\nA claim.\n::\n\n::evidence{id="e1" for="c1"}\nSeen.\n::\n';
const STRICT = { ".notarai/config.yaml": "transcripts: strict\n" };
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const op = (value: number) => JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value });

/**
 * What `patch d.noma --op <op(value)> [--actor-name NAME]` does (exit 0), in process, for the patches
 * that only prepare the state `transcript accept` is then run on: the actor as the CLI makes it
 * (kind human, named by --actor-name, else git's user.name, "Test" in these repositories).
 */
function patchInProcess(repo: string, value: number, name = "Test"): void {
  const r = patchDocument(join(repo, "d.noma"), [JSON.parse(op(value))], { actor: { kind: "human", name }, root: repo, reuse: false });
  expect(r.outcome.result, JSON.stringify(r.outcome)).toBe("applied");
}

/**
 * What `transcript accept d.noma --reason "typo fixed in the editor"` does (exit 0), in process, where the
 * acknowledgement only prepares the state `transcript verify` or `check` is then asked about (the tests of
 * accept itself spawn it): the actor as the CLI makes it (kind human, git's user.name, "Test" here).
 */
function acceptInProcess(repo: string): void {
  const r = acceptOutsideEdits(join(repo, "d.noma"), {
    actor: { kind: "human", name: "Test" },
    reason: "typo fixed in the editor",
    label: "d.noma",
    root: repo,
  });
  expect(r.accepted).toHaveLength(1);
}

/** The v1.0 transcript record as a zod schema (§5): what src/internal.ts exports as TranscriptRecordSchema. */
const TranscriptRecordSchema = transcriptSchemas().record;

const templates = repoTemplates();

/** A repository whose d.noma was patched to each value in turn, built once per list and copied for each test. */
function patched(values: number[] = [0.6]): string {
  return templates.copy(`patched:${values.join(",")}`, () => {
    const repo = tempRepo({ "d.noma": DOC, ...STRICT });
    for (const v of values) patchInProcess(repo, v, "bot");
    return repo;
  });
}

const read = (repo: string, f = "d.noma.patches") => readFileSync(join(repo, f), "utf8");
const records = (repo: string) =>
  read(repo)
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const accept = (repo: string, ...more: string[]) => runCli(["transcript", "accept", "d.noma", "--reason", "typo fixed in the editor", ...more], { cwd: repo });

interface Verified {
  code: number;
  ok: boolean;
  findings: Array<{ severity: string; code: string; message: string; line?: number }>;
}
function verify(repo: string, ...more: string[]): Verified {
  const r = runCli(["transcript", "verify", "d.noma", "--format", "json", ...more], { cwd: repo });
  const env = JSON.parse(r.stdout) as { ok: boolean; result: Omit<Verified, "code" | "ok"> };
  return { ...env.result, ok: env.ok, code: r.code };
}

function expectClean(repo: string): void {
  const strict = verify(repo, "--strict");
  expect(strict.code, JSON.stringify(strict.findings)).toBe(0);
  expect(strict.findings.filter((f) => f.severity !== "info")).toEqual([]);
  const check = runCli(["check", "d.noma", "d.noma.patches"], { cwd: repo });
  expect(check.code, check.stdout).toBe(0);
  expect(check.stdout).toBe("✓ No issues found.\n");
  expect(records(repo).length).toBeGreaterThan(0);
  for (const r of records(repo)) {
    expect(isTranscriptRecord(r), JSON.stringify(r)).toBe(true);
    expect(TranscriptRecordSchema.safeParse(r).success).toBe(true);
  }
}

describe("transcript accept: the document edited outside the protocol", () => {
  it("appends one sealed noop record bridging the recorded state to the document's bytes; check and --strict are then clean", () => {
    const repo = patched();
    const recorded = sha(readFileSync(join(repo, "d.noma"), "utf8"));
    appendFileSync(join(repo, "d.noma"), "\nA paragraph typed in an editor.\n");
    const edited = readFileSync(join(repo, "d.noma"), "utf8");
    // Before: strict fails, check reports the mismatch as an error (transcripts: strict).
    expect(verify(repo, "--strict").findings.map((f) => f.code)).toEqual(["transcript-document-mismatch"]);
    expect(runCli(["check", "d.noma"], { cwd: repo }).code).toBe(1);

    const r = accept(repo, "--actor-name", "Ada");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `accepted: d.noma as it is now (${recorded.slice(0, 8)} → ${sha(edited).slice(0, 8)}), edited outside the protocol\ntranscript: 1 acknowledgement appended to d.noma.patches (actor human Ada)\n`,
    );
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(edited); // the document is not touched
    const all = records(repo);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({
      protocol_version: "1.0",
      actor: { kind: "human", name: "Ada" },
      pre_sha256: sha(edited),
      post_sha256: sha(edited),
      op: { op: "accept_outside_edit", recorded_sha256: recorded, accepted_sha256: sha(edited) },
      patch_result: "noop",
      pre_validation: "ok",
      post_validation: "ok",
      reason: "typo fixed in the editor",
      parent_op_id: all[0]!["op_id"],
      prev_entry_sha256: sha(`${read(repo).split("\n")[0]!}\n`),
    });
    expect(all[1]!["op"]).not.toHaveProperty("gap_op_id");
    expect(all[1]!["diagnostics"]).toEqual([
      { severity: "info", code: "outside_edit_accepted", message: expect.stringContaining("edited outside the patch protocol"), phase: "pre" },
    ]);
    expectClean(repo);

    // verify lists the acknowledgement as information, in text and json.
    const json = verify(repo);
    expect(json.findings).toEqual([
      {
        severity: "info",
        code: "transcript-outside-edit-accepted",
        line: 2,
        message: `Acknowledges an edit made outside the protocol (${recorded.slice(0, 8)} → ${sha(edited).slice(0, 8)}), accepted by Ada: "typo fixed in the editor"; the recorded state continues from ${sha(edited).slice(0, 8)}.`,
      },
    ]);
    const text = runCli(["transcript", "verify", "d.noma", "--strict"], { cwd: repo });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      `INFO [transcript-outside-edit-accepted] d.noma.patches:2: ${json.findings[0]!.message}\n✓ d.noma.patches: 2 records (1 applied), chain intact, document matches (1 outside edit acknowledged).\n`,
    );

    // Patching goes on from the accepted state; still clean.
    patchInProcess(repo, 0.9);
    expectClean(repo);
  });

  it("an edit after accepting is a gap again, until accepted again", () => {
    const repo = patched();
    appendFileSync(join(repo, "d.noma"), "\nOne.\n");
    expect(accept(repo).code).toBe(0);
    appendFileSync(join(repo, "d.noma"), "\nTwo.\n");
    const again = verify(repo, "--strict");
    expect(again.code).toBe(1);
    expect(again.findings.map((f) => [f.severity, f.code])).toEqual([
      ["info", "transcript-outside-edit-accepted"],
      ["error", "transcript-document-mismatch"],
    ]);
    expect(runCli(["check", "d.noma"], { cwd: repo }).stdout).toContain("ERROR [transcript-document-mismatch]");
    expect(accept(repo).code).toBe(0);
    expect(records(repo).map((r) => (r["op"] as { op: string }).op)).toEqual(["update_attribute", "accept_outside_edit", "accept_outside_edit"]);
    expectClean(repo);
  });

  it("actor kind, name and model as patch takes them; --format json", () => {
    const repo = patched();
    appendFileSync(join(repo, "d.noma"), "\nx\n");
    const r = accept(repo, "--actor-kind", "agent", "--actor-name", "planner", "--actor-model", "m-1", "--format", "json");
    expect(r.code, r.stderr).toBe(0);
    const env = JSON.parse(r.stdout) as {
      schema: string;
      result: { file: string; document_sha256: string; accepted: unknown[]; records: Array<Record<string, unknown>> };
    };
    expect(env.schema).toBe("noma-reconcile/transcript-accept@2");
    const out = env.result;
    expect(out).toMatchObject({
      file: "d.noma",
      transcript: "d.noma.patches",
      document_sha256: sha(read(repo, "d.noma")),
    });
    expect(out.accepted).toEqual([{ recorded_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), accepted_sha256: sha(read(repo, "d.noma")) }]);
    expect(out.records).toEqual([records(repo)[1]]);
    expect(out.records[0]!["actor"]).toEqual({ kind: "agent", name: "planner", model: "m-1" });
  });
});

describe("transcript accept: an edit made outside the protocol and then patched over", () => {
  it("acknowledges the gap inside the transcript by naming the record after it", () => {
    const repo = patched();
    const recorded = sha(read(repo, "d.noma"));
    appendFileSync(join(repo, "d.noma"), "\nHand edit.\n");
    const edited = sha(read(repo, "d.noma"));
    patchInProcess(repo, 0.7);
    // The gap is now inside the transcript: an error on every strict check, for good, until acknowledged.
    expect(verify(repo, "--strict").findings).toEqual([expect.objectContaining({ severity: "error", code: "transcript-state-gap", line: 2 })]);

    const r = accept(repo);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`accepted: the edit made outside the protocol before d.noma.patches:2 (${recorded.slice(0, 8)} → ${edited.slice(0, 8)})`);
    const all = records(repo);
    expect(all[2]).toMatchObject({
      op: { op: "accept_outside_edit", recorded_sha256: recorded, accepted_sha256: edited, gap_op_id: all[1]!["op_id"] },
      patch_result: "noop",
      pre_sha256: all[1]!["post_sha256"],
      post_sha256: all[1]!["post_sha256"],
      parent_op_id: all[1]!["op_id"],
    });
    expectClean(repo);
    expect(verify(repo).findings).toEqual([
      { severity: "info", code: "transcript-outside-edit-accepted", line: 3, message: expect.stringContaining("before line 2") },
    ]);
  });

  it("two gaps inside and the document edited again: one acknowledgement each, the document's first", () => {
    const repo = patched();
    for (const [i, v] of [0.7, 0.8].entries()) {
      appendFileSync(join(repo, "d.noma"), `\nHand edit ${i}.\n`);
      patchInProcess(repo, v);
    }
    appendFileSync(join(repo, "d.noma"), "\nLast hand edit.\n");
    expect(verify(repo, "--strict").findings.map((f) => f.code)).toEqual(["transcript-state-gap", "transcript-state-gap", "transcript-document-mismatch"]);
    const r = accept(repo);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("transcript: 3 acknowledgements appended");
    const ops = records(repo)
      .slice(3)
      .map((x) => x["op"] as Record<string, unknown>);
    expect(ops.map((o) => o["gap_op_id"] === undefined)).toEqual([true, false, false]);
    expectClean(repo);
    expect(verify(repo).findings.map((f) => f.line)).toEqual([4, 5, 6]);
  });

  it("--base replay says why it cannot pass an acknowledged edit", () => {
    const repo = tempRepo({ "d.noma": DOC, "base.noma": DOC });
    patchInProcess(repo, 0.6);
    appendFileSync(join(repo, "d.noma"), "\nHand edit.\n");
    acceptInProcess(repo);
    const r = runCli(["transcript", "verify", "d.noma", "--base", "base.noma"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "That step is the edit made outside the protocol acknowledged on line 2: the transcript does not hold its bytes, so no replay passes it.",
    );
  });
});

describe("transcript accept: what still fails", () => {
  it("an unacknowledged gap still fails strict next to an acknowledged one", () => {
    const repo = patched();
    appendFileSync(join(repo, "d.noma"), "\nFirst.\n");
    acceptInProcess(repo);
    appendFileSync(join(repo, "d.noma"), "\nSecond.\n");
    patchInProcess(repo, 0.8);
    const v = verify(repo, "--strict");
    expect(v.code).toBe(1);
    expect(v.findings.map((f) => [f.severity, f.code, f.line])).toEqual([
      ["info", "transcript-outside-edit-accepted", 2],
      ["error", "transcript-state-gap", 3],
    ]);
    const check = runCli(["check", "d.noma"], { cwd: repo });
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^ERROR \[transcript-state-gap\] d\.noma\.patches:3:1: /);
    expect(check.stdout).not.toContain("transcript-outside-edit-accepted");
  });

  it("an edited acknowledgement breaks its seal; re-sealed, the next record's chain; a forged one that names the wrong states is transcript-bad-acceptance", () => {
    const repo = patched();
    appendFileSync(join(repo, "d.noma"), "\nEdit.\n");
    acceptInProcess(repo);
    const lines = read(repo)
      .split("\n")
      .filter((l) => l.length > 0);
    // The reason rewritten by hand: the seal no longer matches.
    writeFileSync(join(repo, "d.noma.patches"), `${lines[0]}\n${lines[1]!.replace("typo fixed in the editor", "approved by the board")}\n`);
    expect(verify(repo).findings.map((f) => f.code)).toContain("transcript-seal-broken");
    // Re-sealed (chain included) with a record after it kept: the next record's link breaks.
    patchInProcess(repo, 0.7);
    const all = read(repo)
      .split("\n")
      .filter((l) => l.length > 0);
    const forged = JSON.parse(all[1]!) as Record<string, unknown>;
    forged["reason"] = "approved by the board";
    const [resealed] = chainLines([forged], `${all[0]}\n`);
    writeFileSync(join(repo, "d.noma.patches"), `${all[0]}\n${resealed}${all[2]}\n`);
    expect(verify(repo).findings.map((f) => f.code)).toContain("transcript-chain-broken");

    // A whole forged acknowledgement, sealed and chained, that claims the wrong recorded state.
    const fresh = patched();
    appendFileSync(join(fresh, "d.noma"), "\nEdit.\n");
    const [first] = read(fresh).split("\n");
    const docSha = sha(read(fresh, "d.noma"));
    const bogus = {
      ...(JSON.parse(first!) as Record<string, unknown>),
      op_id: "forged-1",
      pre_sha256: docSha,
      post_sha256: docSha,
      pre_sha: docSha.slice(0, 8),
      post_sha: docSha.slice(0, 8),
      op: { op: "accept_outside_edit", recorded_sha256: "0".repeat(64), accepted_sha256: docSha },
      patch_result: "noop",
      diagnostics: [],
      pre_validation: "ok",
      post_validation: "ok",
    };
    appendFileSync(join(fresh, "d.noma.patches"), chainLines([bogus], `${first}\n`).join(""));
    const v = verify(fresh, "--strict");
    expect(v.code).toBe(1);
    expect(v.findings.map((f) => [f.code, f.line])).toEqual([
      ["transcript-bad-acceptance", 2],
      ["transcript-state-gap", 2],
    ]);
    expect(v.findings[0]!.message).toContain("recorded_sha256 is not the state the transcript was in");
  });
});

describe("transcript accept: refusals (exit 2, nothing written)", () => {
  it("nothing to accept", () => {
    const repo = patched();
    const before = read(repo);
    const r = accept(repo);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^noma-reconcile: nothing to accept: d\.noma is in the state its transcript ends in \([0-9a-f]{8}\), and no edit was made outside the protocol; nothing was written\.\n$/,
    );
    expect(read(repo)).toBe(before);
    // After an acceptance, again nothing: the acknowledged edit is counted.
    appendFileSync(join(repo, "d.noma"), "\nx\n");
    expect(accept(repo).code).toBe(0);
    const twice = accept(repo);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("every edit made outside the protocol is acknowledged already (1)");
  });

  it("no transcript: nothing recorded to bridge from", () => {
    const repo = tempRepo({ "d.noma": DOC });
    const r = accept(repo);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("d.noma has no transcript (d.noma.patches): there is no recorded state to bridge from");
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
  });

  it("a transcript with errors: listed, not mended", () => {
    const repo = patched([0.6, 0.7]);
    const lines = read(repo).split("\n");
    writeFileSync(join(repo, "d.noma.patches"), [lines[0]!.replace('"bot"', '"eve"'), ...lines.slice(1)].join("\n"));
    appendFileSync(join(repo, "d.noma"), "\nx\n");
    const before = read(repo);
    const r = accept(repo);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("d.noma.patches has errors an acknowledgement cannot mend; nothing was written:\n  d.noma.patches:1: [transcript-seal-broken]");
    expect(read(repo)).toBe(before);
  });

  it("an interrupted patch is not an outside edit: the next patch heals it", async () => {
    const repo = patched();
    const signal = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
      const c = spawn(process.execPath, [CLI, "patch", "d.noma", "--op", op(0.7)], {
        cwd: repo,
        env: { ...process.env, NOMA_RECONCILE_TEST_CRASH_AT: "after-transcript" },
        stdio: "ignore",
      });
      c.on("error", reject);
      c.on("close", (_code, s) => resolve(s));
    });
    expect(signal).toBe("SIGKILL");
    const r = accept(repo);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("[transcript-interrupted]");
    expect(r.stderr).toContain("An interrupted patch is not an outside edit: the next patch heals it");
  });

  it("usage: --reason is required, the action must be known, the path inside the repository", () => {
    const repo = patched();
    appendFileSync(join(repo, "d.noma"), "\nx\n");
    for (const args of [
      ["transcript", "accept", "d.noma"],
      ["transcript", "accept", "d.noma", "--reason", "  "],
      ["transcript", "accept"],
      ["transcript", "bless", "d.noma"],
      ["transcript", "accept", "../elsewhere.noma", "--reason", "x"],
    ]) {
      const r = runCli(args, { cwd: repo });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^noma-reconcile: /);
    }
    expect(runCli(["transcript", "accept", "d.noma"], { cwd: repo }).stderr).toContain("transcript accept needs --reason TEXT");
    expect(runCli(["transcript", "accept", "missing.noma", "--reason", "x"], { cwd: repo })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("missing.noma: no such document"),
    });
    expect(records(repo)).toHaveLength(1);
    const help = runCli(["transcript", "--help"], { cwd: repo });
    expect(help.stdout).toContain("noma-reconcile transcript accept docs/plan.noma --reason");
    expect(help.stdout).toContain("Accepting an outside edit:");
  });
});

describe("transcript accept under the document's lock", () => {
  it("accepts racing patches leave one chain that verifies under --strict", async () => {
    const repo = patched();
    appendFileSync(join(repo, "d.noma"), "\nHand edit.\n");
    const run = (args: string[]) =>
      new Promise<number>((resolve, reject) => {
        const c = spawn(process.execPath, [CLI, ...args], { cwd: repo, env: { ...process.env, NO_COLOR: "1" }, stdio: "ignore" });
        c.on("error", reject);
        c.on("close", (code) => resolve(code ?? -1));
      });
    const codes = await Promise.all([
      run(["transcript", "accept", "d.noma", "--reason", "race"]),
      run(["patch", "d.noma", "--op", op(0.7)]),
      run(["transcript", "accept", "d.noma", "--reason", "race"]),
      run(["patch", "d.noma", "--op", op(0.8)]),
    ]);
    // Whatever the order, the patches apply, at least one accept acknowledges the edit (one may find nothing left), and nothing is lost.
    expect([codes[1], codes[3]]).toEqual([0, 0]);
    expect([codes[0], codes[2]].sort()).toEqual(expect.arrayContaining([0]));
    expect([codes[0], codes[2]].every((c) => c === 0 || c === 2)).toBe(true);
    const accepted = [codes[0], codes[2]].filter((c) => c === 0).length;
    expect(records(repo)).toHaveLength(1 + 2 + accepted);
    expect(verify(repo, "--strict").code).toBe(0);
  });
});
