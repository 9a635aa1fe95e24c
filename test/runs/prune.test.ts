/**
 * `runs prune`: old runs go — their records, worktrees and merged branches — each one printed;
 * a dirty worktree is never removed (nor its run), an unmerged branch is kept and named;
 * --dry-run removes nothing; retention comes from --keep-last/--keep-days or .norma/config.json.
 * The real CLI on a real repository with runs made by the scripted agents.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readNormaState } from "../../src/runs/norma-db.js";
import { git } from "../helpers/temp-repo.js";
import { cli, execAgent, lineDiff, runForSetUp, runIds, runRepoAsync, SPEC, worktreeOf } from "./helpers/run-repo.js";

const OLD = "export const greet = (n: string) => `hi ${n}`;";
const NEW = "export const greet = (n: string) => `hello ${n}`; // reconciled";

describe("runs prune", { timeout: 600_000 }, () => {
  it("removes old runs, their worktrees and merged branches, printing each; keeps dirty worktrees and unmerged branches, and says why", async () => {
    const root = await runRepoAsync({
      drift: { "src/app.ts": `${OLD}\n` },
      config: { agents: { act: execAgent("act.json") } },
      behaviors: {
        "act.json": { files: { "patch.diff": lineDiff("src/app.ts", OLD, NEW), "reconciled.json": [{ spec: SPEC, path: "src/app.ts" }] } },
      },
    });
    // The runs to prune are set-up (made in process, as `run --spec SPEC` makes them); `runs prune` is the subject.
    // A: passed, not applied (its commit is in no other branch).
    const a = (await runForSetUp(root)).run_id;
    // B: stopped after one iteration, its worktree then edited by hand (dirty).
    const b = (await runForSetUp(root, { maxIterations: 1 })).run_id;
    writeFileSync(join(worktreeOf(root, b), "src/app.ts"), "// my experiment\n");
    // C: passed and applied (merged); D: passed with nothing to do (its branch is the base); E: the newest.
    const c = (await runForSetUp(root, { apply: true })).run_id;
    const d = (await runForSetUp(root)).run_id;
    const e = (await runForSetUp(root)).run_id;
    const branch = (id: string) => `noma-reconcile/run/${id}`;
    const aTip = git(root, ["rev-parse", branch(a)]).trim();

    const dry = cli(root, ["runs", "prune", "--keep-last", "1", "--keep-days", "0", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    const day = (id: string) => `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}`;
    expect(dry.stdout).toBe(
      [
        `would remove run ${a} (passed, ${day(a)}): its record, worktree .norma/worktrees/${a}; branch ${branch(a)} is kept: its commit ${aTip.slice(0, 12)} is in no other branch (\`noma-reconcile runs apply\` needs the run's record; \`git branch -D ${branch(a)}\` drops it)`,
        `kept run ${b} (stopped, ${day(b)}): its worktree .norma/worktrees/${b} has uncommitted changes (1 path: src/app.ts); review them, then \`git worktree remove --force .norma/worktrees/${b}\` and prune again`,
        `would remove run ${c} (passed, ${day(c)}): its record, worktree .norma/worktrees/${c}, branch ${branch(c)}`,
        `would remove run ${d} (passed, ${day(d)}): its record, worktree .norma/worktrees/${d}, branch ${branch(d)}`,
        "Would prune 3 of 5 runs (keeping the last 1 and those of the last 0 days); 1 kept, see above.",
        "",
      ].join("\n"),
    );
    // Nothing removed by the dry run.
    expect(runIds(root)).toEqual([a, b, c, d, e].sort());
    for (const id of [a, b, c, d, e]) expect(existsSync(worktreeOf(root, id)), id).toBe(true);

    const r = cli(root, ["runs", "prune", "--keep-last", "1", "--keep-days", "0", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.schema).toBe("noma-reconcile/runs-prune@1");
    expect(out.result).toMatchObject({ dry_run: false, keep_last: 1, keep_days: 0, total: 5, removed: 3 });
    expect(out.result.runs.map((x: { run_id: string; record: string }) => `${x.run_id}:${x.record}`)).toEqual([
      `${a}:removed`,
      `${b}:kept`,
      `${c}:removed`,
      `${d}:removed`,
    ]);
    expect(runIds(root)).toEqual([b, e].sort());
    const state = (await readNormaState(root))!;
    expect(state.runs.map((x) => x.run_id).sort()).toEqual([b, e].sort());
    for (const id of [a, c, d]) expect(existsSync(worktreeOf(root, id)), id).toBe(false);
    expect(readFileSync(join(worktreeOf(root, b), "src/app.ts"), "utf8")).toBe("// my experiment\n");
    // Branches: A's unmerged commit kept, B's and E's with their runs; C's (applied) and D's (nothing of its own) gone.
    expect(git(root, ["for-each-ref", "--format=%(refname:short)", "refs/heads/noma-reconcile/run/"]).trim().split("\n").sort()).toEqual(
      [branch(a), branch(b), branch(e)].sort(),
    );
    expect(git(root, ["worktree", "list", "--porcelain"]).match(/^worktree /gm)).toHaveLength(3);
    // The main checkout's HEAD (C applied onto it) is untouched by prune.
    expect(git(root, ["status", "--porcelain", "--", ".", ":(exclude).norma"])).toBe("");

    // Nothing more to prune under the defaults (the last 20, the last 30 days).
    expect(cli(root, ["runs", "prune"]).stdout).toBe("Nothing to prune: 2 runs, none older than the last 20 and 30 days.\n");
    // Retention from .norma/config.json: keep nothing; the dirty one still stays.
    writeFileSync(join(root, ".norma/config.json"), JSON.stringify({ agents: { act: execAgent("act.json") }, retention: { keep_last: 0, keep_days: 0 } }));
    const all = cli(root, ["runs", "prune", "--format", "json"]);
    expect(JSON.parse(all.stdout).result).toMatchObject({ keep_last: 0, keep_days: 0, total: 2, removed: 1 });
    expect(runIds(root)).toEqual([b]);
    const bad = cli(root, ["runs", "prune", "--keep-last=-1"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('noma-reconcile: --keep-last takes a whole number ≥ 0; got "-1"\nRun `noma-reconcile runs --help` for usage.\n');
  });
});
