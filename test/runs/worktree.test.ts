/**
 * A worktree per run, and results as branches — the real CLI on real repositories with the
 * scripted agents:
 * - the user's checkout (files outside .git/ and .norma/, git status, the index, the stash, HEAD)
 *   is byte-identical after runs that pass, stop, are killed with -9, recover and resume;
 * - the run works in .norma/worktrees/<id> on noma-reconcile/run/<id>, from HEAD or --base; a
 *   configured place outside the repository works, one git does not ignore is refused;
 * - a run killed as it starts is rebuilt from its run.json and resumes; one killed inside
 *   `git worktree add` gets its worktree made again;
 * - PASS commits the result on the run's branch (one Conventional Commit; `ci` on it is clean);
 *   `runs apply` and `run --apply` bring it in only when it applies cleanly to a clean checkout,
 *   and say exactly why not otherwise, changing nothing.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getChangedArtifacts } from "../../src/reconcile/get-changed-artifacts.js";
import { readNormaState } from "../../src/runs/norma-db.js";
import { CLI } from "../helpers/run-cli.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { git, tempDir } from "../helpers/temp-repo.js";
import { checkoutFingerprint, cli, lineDiff, readJson, runForSetUp, runIds, runRepoAsync, shAgent, SPEC, worktreeOf } from "./helpers/run-repo.js";

const OLD = "export const greet = (n: string) => `hi ${n}`;";
const NEW = "export const greet = (n: string) => `hello ${n}`; // reconciled";
const DRIFT = { "src/app.ts": `${OLD}\n` };

/** Drift on src/app.ts; the act agent patches it and acknowledges it. */
async function fixingRepo(extra: { config?: object; act?: object } = {}): Promise<string> {
  return await runRepoAsync({
    drift: DRIFT,
    extra: { "notes.txt": "notes\n", "other.txt": "other\n" },
    config: { agents: { act: shAgent("act.sh") }, ...extra.config },
    shBehaviors: {
      "act.sh": extra.act ?? {
        files: { "patch.diff": lineDiff("src/app.ts", OLD, NEW), "reconciled.json": [{ spec: SPEC, path: "src/app.ts" }] },
      },
    },
  });
}

/** A user at work: a stash entry, a staged change, an unstaged change, an untracked and an ignored file. */
function userAtWork(root: string): void {
  writeFileSync(join(root, "notes.txt"), "stashed notes\n");
  git(root, ["stash", "push", "-q", "-m", "my stash"]);
  writeFileSync(join(root, "notes.txt"), "staged notes\n");
  git(root, ["add", "notes.txt"]);
  writeFileSync(join(root, "other.txt"), "unstaged edit\n");
  writeFileSync(join(root, "scratch.txt"), "untracked\n");
  writeFileSync(join(root, "ignored.log"), "ignored\n");
}

const templates = repoTemplates();

/**
 * What the `runs apply` tests start from: fixingRepo() after one passed `run --spec SPEC` (its commit on its branch, not
 * applied). The run is their precondition, not their subject (the run's result is the subject of "PASS commits …",
 * which makes its own with the CLI): made in process (runForSetUp) once per file and copied. A copy's worktree links (absolute paths, in both directions:
 * the worktree's .git file, its gitdir file under .git/worktrees/) are set to the copy, as `git worktree add` writes
 * them, so they are what they would be had the run been made in the copy.
 */
async function passedRun(): Promise<{ root: string; id: string }> {
  const root = await templates.copyAsync("passed-run", async () => {
    const built = await fixingRepo();
    const r = await runForSetUp(built);
    if (r.status !== "passed") throw new Error(`the passed run for the runs apply tests: ${r.status}: ${r.reason}`);
    return built;
  });
  const id = runIds(root)[0]!;
  const wt = worktreeOf(root, id);
  writeFileSync(join(wt, ".git"), `gitdir: ${join(root, ".git/worktrees", id)}\n`);
  writeFileSync(join(root, ".git/worktrees", id, "gitdir"), `${join(wt, ".git")}\n`);
  return { root, id };
}

function runKilledAt(root: string, point: string, args: string[] = ["--spec", SPEC]): Promise<NodeJS.Signals | null> {
  const env = { ...process.env, CI: "1", NO_COLOR: "1", NOMA_RECONCILE_TEST_CRASH_AT: point };
  const child = spawn(process.execPath, [CLI, "run", ...args], { cwd: root, env, stdio: "ignore" });
  return new Promise((resolve) => child.on("close", (_code, signal) => resolve(signal)));
}

function json(r: { stdout: string }): any {
  return JSON.parse(r.stdout).result;
}

describe("a worktree per run", { timeout: 300_000 }, () => {
  it("the user's checkout — files, index, HEAD, stash — is untouched by runs that pass, stop, are killed with -9, recover and resume", async () => {
    const root = await fixingRepo();
    userAtWork(root);
    const before = checkoutFingerprint(root);
    expect(before.parts["stash"]).toMatch(/^[0-9a-f]{40} On main: my stash\n$/);

    // Passes: the run warns that it does not see the uncommitted work, and leaves it alone.
    const passed = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stderr).toBe(
      `noma-reconcile: warning: your checkout has 3 uncommitted changes (notes.txt, other.txt, scratch.txt): the run works in its own worktree from HEAD (${git(root, ["rev-parse", "HEAD"]).trim().slice(0, 12)}) and does not see them; commit first to include them\n`,
    );
    expect(checkoutFingerprint(root)).toEqual(before);

    // Stops (a budget): the checkout again as it was.
    const stopped = cli(root, ["run", "--spec", SPEC, "--max-iterations", "1", "--format", "json"]);
    expect(json(stopped).status).toBe("stopped");
    expect(checkoutFingerprint(root)).toEqual(before);

    // Killed with -9 half-way through the patch (the diff applied in the worktree, the Noma ops not yet).
    expect(await runKilledAt(root, "patch-diff-applied")).toBe("SIGKILL");
    expect(checkoutFingerprint(root)).toEqual(before);
    const state = (await readNormaState(root))!;
    const killed = state.runs.find((r) => r.status === "running")!.run_id;
    const wt = worktreeOf(root, killed);
    expect(readFileSync(join(wt, "src/app.ts"), "utf8")).toBe(`${NEW}\n`);
    // The next command recovers: the patch is rolled back in the worktree, and the record says so, as it is.
    expect(cli(root, ["runs", "list"]).code).toBe(0);
    expect(readFileSync(join(wt, "src/app.ts"), "utf8")).toBe(`${OLD}\n`);
    const rolled = (await readNormaState(root))!.events(killed).find((e) => e.type === "patch_rolled_back")!;
    expect(rolled.message).toBe(
      `The patch of step 4 was being applied when the process died; the worktree .norma/worktrees/${killed} was restored from its backup (git status as before the patch)`,
    );
    expect(checkoutFingerprint(root)).toEqual(before);

    // Resumes in the same worktree and passes; still nothing of the user's changed.
    const resumed = cli(root, ["run", "--resume", killed, "--format", "json"]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(json(resumed).worktree.dir).toBe(`.norma/worktrees/${killed}`);
    const events = (await readNormaState(root))!.events(killed).map((e) => e.type);
    expect(events.filter((t) => t === "worktree_created")).toHaveLength(1);
    expect(events.filter((t) => t === "patch_applied")).toHaveLength(1);
    expect(readFileSync(join(wt, "src/app.ts"), "utf8")).toBe(`${NEW}\n`);
    expect(git(root, ["show", `noma-reconcile/run/${killed}:src/app.ts`])).toBe(`${NEW}\n`);
    expect(checkoutFingerprint(root)).toEqual(before);
    // The worktrees live under .norma/, which git ignores: the user's status never lists them.
    expect(git(root, ["worktree", "list", "--porcelain"]).match(/^worktree /gm)).toHaveLength(4);
  });

  it("--base REF starts the run's worktree from that commit; the run's branch starts there too", async () => {
    const root = await fixingRepo();
    const older = git(root, ["rev-parse", "HEAD~1"]).trim();
    const r = cli(root, ["run", "--spec", SPEC, "--base", "HEAD~1", "--format", "json"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = json(r);
    // Before the drift commit there is nothing to reconcile: the first check passes, nothing is committed.
    expect(out.steps.map((s: { role: string }) => s.role)).toEqual(["plan", "do", "check"]);
    expect(out.worktree).toEqual({ dir: `.norma/worktrees/${out.run_id}`, branch: `noma-reconcile/run/${out.run_id}`, base: older });
    expect(git(worktreeOf(root, out.run_id), ["rev-parse", "HEAD"]).trim()).toBe(older);
    expect(git(root, ["rev-parse", `noma-reconcile/run/${out.run_id}`]).trim()).toBe(older);
    const bad = cli(root, ["run", "--spec", SPEC, "--base", "no-such-branch"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'noma-reconcile: --base: unknown ref "no-such-branch": it does not name a commit in this repository (try `git fetch`, or check the branch name)\n',
    );
  });

  it("worktrees.dir puts the worktrees elsewhere (outside the repository); a place git does not ignore is refused before anything is made", async () => {
    const outside = tempDir("nr-wts-");
    const root = await fixingRepo({ config: { worktrees: { dir: outside } } });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = json(r);
    expect(out.worktree.dir).toBe(join(outside, out.run_id));
    expect(readFileSync(join(outside, out.run_id, "src/app.ts"), "utf8")).toBe(`${NEW}\n`);

    const inside = await fixingRepo({ config: { worktrees: { dir: "work/trees" } } });
    const refused = cli(inside, ["run", "--spec", SPEC]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^noma-reconcile: the run's worktree would be work\/trees\/\d{8}-\d{6}-[0-9a-f]{6}, which git does not ignore: your `git status` would list it\. Put worktrees\.dir in \.norma\/config\.json under \.norma\/ \(the default, \.norma\/worktrees\), outside the repository, or add it to \.gitignore\n$/,
    );
    expect(runIds(inside)).toEqual([]);
    expect(existsSync(join(inside, "work"))).toBe(false);
  });

  it("a run killed as it starts (its directory written, the database not yet) is rebuilt from its run.json and resumes", async () => {
    const root = await fixingRepo();
    expect(await runKilledAt(root, "run-dir-created")).toBe("SIGKILL");
    const [id] = runIds(root);
    expect(readJson(root, `.norma/runs/${id}/run.json`)).toMatchObject({ version: 1, run_id: id, kv: { specs: [SPEC], worktree: { ready: false } } });
    expect(cli(root, ["runs", "list"]).code).toBe(0);
    const state = (await readNormaState(root))!;
    expect(state.events(id!).map((e) => e.message)).toEqual([
      "Run dir exists but DB record was missing; inserted during recovery, with the run's set-up from its run.json (`noma-reconcile run --resume` continues it)",
    ]);
    const r = cli(root, ["run", "--resume", id!, "--format", "json"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(json(r).commit.files.map((f: { path: string }) => f.path)).toEqual([".notarai/reconciliation_state.json", "src/app.ts"]);
    const worktreeEvent = (await readNormaState(root))!.events(id!).find((e) => e.type === "worktree_created")!;
    // The worktree had never been made: it is made now, with nothing to discard.
    expect(worktreeEvent.message).toBe(`worktree .norma/worktrees/${id} on branch noma-reconcile/run/${id}, from ${git(root, ["rev-parse", "main"]).trim()}`);
  });

  it("a run killed right after `git worktree add` has its worktree made again on --resume; one rebuilt from norma.md alone says so; one with nothing to rebuild from says how to start afresh", async () => {
    const root = await fixingRepo();
    expect(await runKilledAt(root, "worktree-created")).toBe("SIGKILL");
    const [id] = runIds(root);
    expect(existsSync(worktreeOf(root, id!))).toBe(true);
    const r = cli(root, ["run", "--resume", id!, "--format", "json"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const created = (await readNormaState(root))!.events(id!).filter((e) => e.type === "worktree_created");
    expect(created).toHaveLength(1);
    expect(
      created[0]!.message.startsWith(
        `made again (what an interrupted attempt left was removed: worktree .norma/worktrees/${id}, branch noma-reconcile/run/${id}): worktree .norma/worktrees/${id} on`,
      ),
    ).toBe(true);

    // Killed as it started, and its run.json lost (a run directory of an older version has only norma.md).
    const legacy = await fixingRepo();
    expect(await runKilledAt(legacy, "run-dir-created")).toBe("SIGKILL");
    const [lid] = runIds(legacy);
    rmSync(join(legacy, `.norma/runs/${lid}/run.json`));
    expect(cli(legacy, ["runs", "list"]).code).toBe(0);
    const again = cli(legacy, ["run", "--resume", lid!, "--format", "json"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const rebuilt = (await readNormaState(legacy))!.events(lid!).find((e) => e.type === "run_rebuilt")!;
    expect(rebuilt.message).toBe(`the run's set-up was rebuilt from .norma/runs/${lid}/norma.md (its database record had been recovered without it)`);
    expect(JSON.parse(rebuilt.data_json!)).toEqual({ from: `.norma/runs/${lid}/norma.md`, criteria: ["AC1", "AC2"], specs: [SPEC] });

    const bare = await fixingRepo();
    expect(await runKilledAt(bare, "run-dir-created")).toBe("SIGKILL");
    const [bid] = runIds(bare);
    rmSync(join(bare, `.norma/runs/${bid}/run.json`));
    rmSync(join(bare, `.norma/runs/${bid}/norma.md`));
    expect(cli(bare, ["runs", "list"]).code).toBe(0);
    const refused = cli(bare, ["run", "--resume", bid!]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `noma-reconcile: run ${bid} cannot be resumed: its acceptance criteria were never recorded (the process died as the run started) and .norma/runs/${bid}/ holds neither run.json nor a norma.md listing them; start afresh: noma-reconcile run --spec <spec> (or --goal TEXT with --ac ID=TEXT)\n`,
    );
  });
});

describe("results as branches", { timeout: 300_000 }, () => {
  it("PASS commits one Conventional Commit naming the run, the specs and the verdict; `ci` on the branch is clean", async () => {
    const root = await fixingRepo();
    const out = json(cli(root, ["run", "--spec", SPEC, "--format", "json"]));
    const id = out.run_id;
    const wt = worktreeOf(root, id);
    const message = git(root, ["log", "-1", "--format=%B", `noma-reconcile/run/${id}`]);
    expect(message).toBe(
      [
        `chore(reconcile): reconcile ${SPEC} (run ${id}, PASS)`,
        "",
        `Goal: Reconcile ${SPEC}: no unreconciled drift, valid documents and transcripts`,
        "Verdict: PASS after 2 iterations; AC1, AC2 hold",
        `Specs: ${SPEC}`,
        "Files:",
        "  M .notarai/reconciliation_state.json",
        "  M src/app.ts",
        "",
        `Record: noma-reconcile runs show ${id}`,
        "",
        `Noma-Reconcile-Run: ${id}`,
        "Noma-Reconcile-Verdict: PASS",
        "",
        "",
      ].join("\n"),
    );
    expect(git(root, ["rev-parse", `noma-reconcile/run/${id}^`]).trim()).toBe(git(root, ["rev-parse", "main"]).trim());
    expect(git(wt, ["status", "--porcelain"])).toBe("");
    // A fresh clone of the branch (no cache: the committed snapshot seeds it) passes the PR check with no drift.
    const clone = tempDir("nr-clone-");
    git(clone, ["clone", "-q", "--branch", `noma-reconcile/run/${id}`, root, "c"]);
    const ci = cli(join(clone, "c"), ["ci", "--base", "origin/main", "--format", "json"]);
    expect(ci.code, ci.stdout).toBe(0);
    expect(JSON.parse(ci.stdout).summary).toMatchObject({ errors: 0, drift: 0, affected_specs: 1 });
  });

  it("runs apply fast-forwards an unchanged branch and marks the files in the user's cache; again, it says it is already there", async () => {
    const { root, id } = await passedRun();
    const commit = git(root, ["rev-parse", `noma-reconcile/run/${id}`]).trim();
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual(["src/app.ts"]);
    const r = cli(root, ["runs", "apply", id]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `Applied run ${id} to main (fast-forward): ${head.slice(0, 12)} → ${commit.slice(0, 12)}\nMarked reconciled in your cache for ${SPEC}: src/app.ts\n`,
    );
    expect(git(root, ["rev-parse", "HEAD"]).trim()).toBe(commit);
    expect(readFileSync(join(root, "src/app.ts"), "utf8")).toBe(`${NEW}\n`);
    expect(git(root, ["status", "--porcelain", "--", ".", ":(exclude).norma"])).toBe("");
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([]);
    const twice = cli(root, ["runs", "apply", id, "--format", "json"]);
    expect(twice.code).toBe(0);
    expect(json(twice)).toMatchObject({ outcome: "already-applied", message: `run ${id}'s commit ${commit.slice(0, 12)} is already in main` });
  });

  it("runs apply cherry-picks onto a branch that moved on, when the commit applies cleanly (its message and author kept)", async () => {
    const { root, id } = await passedRun();
    writeFileSync(join(root, "other.txt"), "the user moved on\n");
    git(root, ["commit", "-qam", "meanwhile"]);
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    const r = cli(root, ["runs", "apply", id, "--format", "json"]);
    expect(r.code, r.stdout).toBe(0);
    const a = json(r);
    expect(a).toMatchObject({ outcome: "applied", how: "cherry-pick", onto: "main", head_before: head, blocking: [] });
    expect(git(root, ["rev-parse", "HEAD^"]).trim()).toBe(head);
    expect(git(root, ["rev-parse", "HEAD"]).trim()).toBe(a.head_after);
    expect(git(root, ["log", "-1", "--format=%s|%an", "HEAD"]).trim()).toBe(`chore(reconcile): reconcile ${SPEC} (run ${id}, PASS)|Test`);
    expect(git(root, ["diff", "--name-only", "HEAD^", "HEAD"]).trim().split("\n")).toEqual([".notarai/reconciliation_state.json", "src/app.ts"]);
    expect(readFileSync(join(root, "other.txt"), "utf8")).toBe("the user moved on\n");
  });

  it("runs apply refuses — changing nothing — and says why: uncommitted changes, a conflict, an untracked file in the way, a detached HEAD, a run that did not pass", async () => {
    const { root, id } = await passedRun();
    const commit = git(root, ["rev-parse", `noma-reconcile/run/${id}`])
      .trim()
      .slice(0, 12);

    writeFileSync(join(root, "other.txt"), "unsaved\n");
    let before = checkoutFingerprint(root);
    let r = cli(root, ["runs", "apply", id]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `Not applied: your checkout has uncommitted changes to tracked files (M other.txt): commit or stash them, then apply run ${id} again\n`,
    );
    expect(checkoutFingerprint(root)).toEqual(before);
    git(root, ["checkout", "-q", "--", "other.txt"]);

    git(root, ["checkout", "-q", "--detach"]);
    r = cli(root, ["runs", "apply", id]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^Not applied: HEAD is detached \\(at [0-9a-f]{12}\\): check out the branch to apply run ${id} onto\\n$`));
    git(root, ["checkout", "-q", "main"]);

    const start = git(root, ["rev-parse", "HEAD"]).trim().slice(0, 12);
    writeFileSync(join(root, "src/app.ts"), "export const greet = (n: string) => `hey ${n}`;\n");
    git(root, ["commit", "-qam", "a conflicting edit"]);
    const moved = git(root, ["rev-parse", "HEAD"]).trim().slice(0, 12);
    before = checkoutFingerprint(root);
    r = cli(root, ["runs", "apply", id, "--format", "json"]);
    expect(r.code).toBe(1);
    expect(json(r)).toMatchObject({
      outcome: "refused",
      blocking: ["src/app.ts"],
      message: `run ${id}'s commit ${commit} does not apply cleanly onto main (${moved}): conflicts in src/app.ts; main moved on since the run started from ${start}: resolve it by hand (git cherry-pick ${commit}), or start a new run from main`,
    });
    expect(checkoutFingerprint(root)).toEqual(before);

    // A run whose commit adds a file, and an untracked file of the user's where it goes.
    const adds = await fixingRepo({
      act: {
        files: {
          "patch.diff": `${lineDiff("src/app.ts", OLD, NEW)}--- /dev/null\n+++ b/src/extra.ts\n@@ -0,0 +1 @@\n+export const extra = 1;\n`,
          "reconciled.json": [
            { spec: SPEC, path: "src/app.ts" },
            { spec: SPEC, path: "src/extra.ts" },
          ],
        },
      },
    });
    // This run and the stopped one below are set-up (made in process, as `run --spec SPEC` makes them); `runs apply` is the subject.
    const aid = (await runForSetUp(adds)).run_id;
    writeFileSync(join(adds, "src/extra.ts"), "mine\n");
    before = checkoutFingerprint(adds);
    r = cli(adds, ["runs", "apply", aid]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`Not applied: untracked files stand where run ${aid}'s commit adds files (src/extra.ts): move them away, then apply again\n`);
    expect(checkoutFingerprint(adds)).toEqual(before);

    const stopped = await runForSetUp(adds, { maxIterations: 1 });
    r = cli(adds, ["runs", "apply", stopped.run_id]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `Not applied: run ${stopped.run_id} has not passed (it is stopped): there is no result to apply; its worktree and branch keep its work (\`noma-reconcile runs show ${stopped.run_id}\`)\n`,
    );
    const unknown = cli(adds, ["runs", "apply", "20260101-000000-abcdef"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("noma-reconcile: no run 20260101-000000-abcdef in .norma/norma.db (`noma-reconcile runs list` lists them)\n");
  });

  it("run --apply brings the commit in at once; a run that changed nothing has nothing to apply", async () => {
    const root = await fixingRepo();
    const r = cli(root, ["run", "--spec", SPEC, "--apply"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const id = runIds(root)[0]!;
    const commit = git(root, ["rev-parse", `noma-reconcile/run/${id}`]).trim();
    expect(git(root, ["rev-parse", "HEAD"]).trim()).toBe(commit);
    expect(r.stdout).toMatch(new RegExp(`\\nApplied run ${id} to main \\(fast-forward\\): [0-9a-f]{12} → ${commit.slice(0, 12)}\\.\\n$`));
    const none = cli(root, ["run", "--spec", SPEC, "--apply", "--format", "json"]);
    expect(none.code).toBe(0);
    expect(json(none).applied).toMatchObject({
      outcome: "nothing-to-apply",
      message: `run ${json(none).run_id} passed without changing anything: nothing to apply`,
    });
  });
});
