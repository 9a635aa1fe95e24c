/**
 * The kill -9 tests of a run (test/runs/crash-recovery*.test.ts, split in three files so that two
 * test workers share them): the crash repository, the fault-injection points, and the checks after
 * each kill. What the tests prove is described in crash-recovery.test.ts.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { getChangedArtifacts } from "../../../src/reconcile/get-changed-artifacts.js";
import { readNormaState, type NormaState } from "../../../src/runs/norma-db.js";
import { verifyTranscript } from "../../../src/transcript/verify-transcript.js";
import { repoTemplates } from "../../helpers/repo-templates.js";
import { CLI } from "../../helpers/run-cli.js";
import { git } from "../../helpers/temp-repo.js";
import { checkoutFingerprint, cli, lineDiff, runIds, runRepo, shAgent, SPEC, worktreeOf } from "./run-repo.js";

const OLD_LINE = "export const greet = (n: string) => `hi ${n}`;";
const NEW_LINE = "export const greet = (n: string) => `hello ${n}`; // reconciled";

const templates = repoTemplates();

/** A fresh copy of the crash repository (built once per file: every test starts from the very same commits). */
export function crashRepo(): string {
  return templates.copy("crash", buildCrashRepo);
}

function buildCrashRepo(): string {
  return runRepo({
    drift: { "src/app.ts": `${OLD_LINE}\n` },
    // The act agent as a sh script (no node process per run: the subject is the run, not the agent).
    config: { agents: { act: shAgent("act.sh") } },
    shBehaviors: {
      "act.sh": {
        files: {
          "patch.diff": lineDiff("src/app.ts", OLD_LINE, NEW_LINE),
          "patch.noma.json": [{ file: "docs/guide.noma", ops: [{ op: "replace_body", id: "greeting", content: "The app says hello, again.\n" }] }],
          "reconciled.json": [
            { spec: SPEC, path: "src/app.ts" },
            { spec: SPEC, path: "docs/guide.noma" },
            { spec: SPEC, path: "docs/guide.noma.patches" },
          ],
        },
      },
    },
  });
}

/** A small deterministic generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Start `run` and let it die: by its own crash point, or by SIGKILL from us after `killAfterMs`. */
export function runUntilKilled(root: string, o: { crashAt?: string; killAfterMs?: number }): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const env = { ...process.env, CI: "1", NO_COLOR: "1", ...(o.crashAt !== undefined ? { NOMA_RECONCILE_TEST_CRASH_AT: o.crashAt } : {}) };
  const child = spawn(process.execPath, [CLI, "run", "--spec", SPEC], { cwd: root, env, stdio: "ignore" });
  const timer = o.killAfterMs !== undefined ? setTimeout(() => child.kill("SIGKILL"), o.killAfterMs) : undefined;
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      if (timer !== undefined) clearTimeout(timer);
      resolve({ code, signal });
    }),
  );
}

export function walk(dir: string, out: string[] = [], rel = ""): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const r = rel === "" ? e.name : `${rel}/${e.name}`;
    out.push(r);
    if (e.isDirectory()) walk(join(dir, e.name), out, r);
  }
  return out;
}

type TreeState = "before" | "after";

/** The state of the newest run's worktree (before: no worktree was made yet). */
async function worktreeState(root: string, where: string): Promise<TreeState> {
  const run = (await readNormaState(root))?.runs[0];
  const wt = run !== undefined ? worktreeOf(root, run.run_id) : null;
  if (wt === null || !existsSync(join(wt, "src/app.ts"))) return "before";
  return treeState(wt, where);
}

function treeState(root: string, where: string): TreeState {
  const code = readFileSync(join(root, "src/app.ts"), "utf8");
  const doc = readFileSync(join(root, "docs/guide.noma"), "utf8");
  const transcript = existsSync(join(root, "docs/guide.noma.patches")) ? readFileSync(join(root, "docs/guide.noma.patches"), "utf8") : null;
  const before = code === `${OLD_LINE}\n` && doc.includes("The app says hello.\n") && transcript === null;
  const after = code === `${NEW_LINE}\n` && doc.includes("The app says hello, again.\n") && transcript !== null && transcript.trim().split("\n").length === 1;
  expect(before || after, `${where}: the work tree is half-patched:\n${code}\n${doc}\n${transcript}`).toBe(true);
  return before ? "before" : "after";
}

/** The user's checkout as it was before any run (set by each test). */
let userCheckout: ReturnType<typeof checkoutFingerprint> | null = null;

/** Take the user's checkout as it is now (before any run): what every check compares against. */
export function recordUserCheckout(root: string): void {
  userCheckout = checkoutFingerprint(root);
}

export async function checkRecovered(root: string, atKill: NormaState | null, where: string): Promise<void> {
  const list = cli(root, ["runs", "list", "--format", "json"]);
  expect(list.code, `${where}: runs list after the kill: ${list.stderr}`).toBe(0);
  const files = walk(join(root, ".norma/runs"));
  expect(
    files.filter((f) => f.includes(".tmp-")),
    `${where}: temp directories left`,
  ).toEqual([]);
  const state = await readNormaState(root);
  const dirs = runIds(root);
  if (state === null) {
    expect(dirs, `${where}: run directories without a database`).toEqual([]);
    return;
  }
  expect(state.runs.map((r) => r.run_id).sort(), `${where}: run directories and rows`).toEqual(dirs);
  for (const run of state.runs) {
    expect(run.status, `${where}: ${run.run_id} still running after recovery`).not.toBe("running");
    const rows = state.steps(run.run_id);
    const stepDirs = existsSync(join(root, run.run_dir, "steps")) ? readdirSync(join(root, run.run_dir, "steps")).sort() : [];
    expect(
      rows.map((s) => s.step_dir.split("/").pop()),
      `${where}: step rows and directories`,
    ).toEqual(stepDirs);
    for (const s of rows) {
      for (const f of ["input.json", "output.json", "logs/stdout.txt", "logs/stderr.txt"])
        expect(existsSync(join(root, s.step_dir, f)), `${where}: ${s.step_dir}/${f}`).toBe(true);
      const out = JSON.parse(readFileSync(join(root, s.step_dir, "output.json"), "utf8"));
      expect(out.version, `${where}: ${s.step_dir}/output.json`).toBe(1);
      if (s.role === "check" && s.status === "ok")
        for (const f of ["verdict.json", "scorecard.md"]) expect(existsSync(join(root, s.step_dir, f)), `${where}: ${s.step_dir}/${f}`).toBe(true);
    }
    const events = state.events(run.run_id);
    expect(
      events.map((e) => e.seq),
      `${where}: event numbers`,
    ).toEqual(events.map((_, i) => i + 1));
    // Nothing committed before the kill is lost.
    if (atKill?.runs.some((r) => r.run_id === run.run_id)) {
      const was = atKill.steps(run.run_id).map((s) => [s.step_index, s.role, s.iteration, s.step_dir]);
      expect(rows.map((s) => [s.step_index, s.role, s.iteration, s.step_dir]).slice(0, was.length), `${where}: committed steps`).toEqual(was);
      const wasEvents = atKill.events(run.run_id).map((e) => [e.seq, e.type, e.message]);
      expect(events.map((e) => [e.seq, e.type, e.message]).slice(0, wasEvents.length), `${where}: committed events`).toEqual(wasEvents);
    }
    const patches = join(root, run.run_dir, "patches");
    expect(existsSync(patches) ? readdirSync(patches) : [], `${where}: patch backups left`).toEqual([]);
  }
  await worktreeState(root, where);
  expect(checkoutFingerprint(root), `${where}: the user's checkout changed`).toEqual(userCheckout);
  // No stray temp file of an interrupted atomic write (write-file-atomic.ts) is left in the tree.
  const run = (await readNormaState(root))?.runs[0];
  const wt = run !== undefined ? worktreeOf(root, run.run_id) : root;
  const strays = [...walk(join(wt, "src")), ...walk(join(wt, "docs"))].filter((f) => /\.\d+\.[0-9a-f]{8}\.tmp$/.test(f));
  expect(strays, `${where}: stray temp files`).toEqual([]);
}

export async function finishRun(root: string, where: string): Promise<void> {
  const state = await readNormaState(root);
  const run = state?.runs[0];
  if (run !== undefined && run.status !== "passed" && state!.kv(run.run_id).has("criteria")) {
    const r = cli(root, ["run", "--resume", run.run_id, "--format", "json"]);
    expect(r.code, `${where}: resume: ${r.stdout}${r.stderr}`).toBe(0);
  } else if (run === undefined || run.status !== "passed") {
    // Killed before the run was recorded with its criteria: start it again.
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code, `${where}: new run: ${r.stdout}${r.stderr}`).toBe(0);
  }
  const passed = (await readNormaState(root))!.runs.find((r) => r.status === "passed")!;
  const wt = worktreeOf(root, passed.run_id);
  expect(treeState(wt, `${where} (finished)`)).toBe("after");
  // In process (what `transcript verify` and `changed` compute; the commands themselves are tested as processes elsewhere).
  const verified = verifyTranscript(readFileSync(join(wt, "docs/guide.noma.patches"), "utf8"), readFileSync(join(wt, "docs/guide.noma"), "utf8"));
  expect(
    verified.findings.filter((f) => f.severity === "error"),
    `${where}: transcript verify`,
  ).toEqual([]);
  expect((await getChangedArtifacts(wt, { specPath: SPEC })).changed_artifacts, `${where}: drift left`).toEqual([]);
  expect(git(wt, ["status", "--porcelain"]), `${where}: the result is committed`).toBe("");
  expect(git(root, ["log", "-1", "--format=%s", `noma-reconcile/run/${passed.run_id}`]).trim()).toBe(
    `chore(reconcile): reconcile ${SPEC} (run ${passed.run_id}, PASS)`,
  );
  expect(checkoutFingerprint(root), `${where}: the user's checkout changed`).toEqual(userCheckout);
  const after = (await readNormaState(root))!;
  const applied = after.runs.flatMap((r) => after.events(r.run_id)).filter((e) => e.type === "patch_applied");
  expect(applied, `${where}: the patch is applied exactly once`).toHaveLength(1);
}

/** Every fault-injection point, each time a full run reaches it (12 database writes, the run's directory and worktree, 7 steps, one patch, the result's commit). */
export const POINTS = [
  "run-dir-created",
  "worktree-created",
  ...Array.from({ length: 12 }, (_, i) => `db-before-rename#${i + 1}`),
  ...Array.from({ length: 7 }, (_, i) => `step-before-rename#${i + 1}`),
  ...Array.from({ length: 7 }, (_, i) => `step-renamed#${i + 1}`),
  ...Array.from({ length: 7 }, (_, i) => `step-committed#${i + 1}`),
  "patch-started",
  "patch-diff-applied",
  "after-transcript",
  "before-document-rename",
  "patch-before-outcome",
  "run-committed",
];

export const seed = Number(process.env["NOMA_RECONCILE_CRASH_SEED"] ?? Date.now() % 1_000_000);

/** The test of one fault-injection point: kill there, recover with the next command, resume to the end. */
export async function killedAt(point: string): Promise<void> {
  const root = crashRepo();
  recordUserCheckout(root);
  const killed = await runUntilKilled(root, { crashAt: point });
  // Every point in the list is reached by a full run: a point that is not reached fails here.
  expect(killed.signal, `${point}: the run was not killed there (the point was not reached)`).toBe("SIGKILL");
  const atKill = await readNormaState(root);
  await checkRecovered(root, atKill, point);
  await finishRun(root, point);
}
