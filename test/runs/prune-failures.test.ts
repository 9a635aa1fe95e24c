/**
 * `runs prune` when git will not do what prune would: a run's branch checked out in another
 * worktree (git refuses to delete it), a run's worktree git refuses to remove (its `.git` file
 * points at another repository). Each such run is kept and named with git's reason; the other
 * runs are pruned; the command succeeds. Real git, the real database, the real CLI.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normaTransaction, readNormaState } from "../../src/runs/norma-db.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { cli } from "./helpers/run-repo.js";

const branch = (id: string) => `noma-reconcile/run/${id}`;

async function seed(root: string, ids: string[], base: string): Promise<void> {
  await normaTransaction(root, (tx) => {
    ids.forEach((id, i) => {
      tx.insertRun({
        run_id: id,
        created_at: `2025-01-0${i + 1}T00:00:00.000Z`,
        goal: "test",
        status: "passed",
        iteration: 1,
        current_step_index: 0,
        verdict: "PASS",
        run_dir: `.norma/runs/${id}`,
      });
      tx.setKv(id, "worktree", { dir: `.norma/worktrees/${id}`, branch: branch(id), base, ready: true });
      mkdirSync(join(root, ".norma/runs", id), { recursive: true });
    });
  });
}

describe("runs prune, when git refuses", { timeout: 120_000 }, () => {
  it("keeps a run whose branch is checked out elsewhere or whose worktree git will not remove, says why, and prunes the rest", async () => {
    const root = tempRepo({ "a.txt": "a\n", ".norma/.gitignore": "*\n" });
    const base = git(root, ["rev-parse", "HEAD"]).trim();
    const [moved, foreign, plain] = ["20250101-000000-000001", "20250102-000000-000002", "20250103-000000-000003"];
    await seed(root, [moved, foreign, plain], base);
    for (const id of [moved, foreign, plain]) git(root, ["worktree", "add", "-q", "-b", branch(id), `.norma/worktrees/${id}`, base]);
    // moved: the user moved its worktree out of .norma (the branch is checked out there now).
    const elsewhere = join(tempDir("nr-moved-"), "checkout");
    git(root, ["worktree", "move", `.norma/worktrees/${moved}`, elsewhere]);
    // foreign: its .git file points at another repository's worktree record.
    const other = tempRepo({ "b.txt": "b\n" });
    git(other, ["worktree", "add", "-q", "-b", "x", join(tempDir("nr-other-"), "wt"), "HEAD"]);
    const foreignGit = join(root, ".norma/worktrees", foreign, ".git");
    const otherRecord = join(other, ".git/worktrees/wt");
    writeFileSync(foreignGit, `gitdir: ${otherRecord}\n`);

    const r = cli(root, ["runs", "prune", "--keep-last", "0", "--keep-days", "0", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).result;
    expect(out.removed).toBe(2);
    const byId = new Map(out.runs.map((x: { run_id: string }) => [x.run_id, x]));
    expect(byId.get(moved)).toMatchObject({
      record: "removed",
      worktree: { action: "none" },
      branch: { name: branch(moved), action: "kept" },
      note: `branch ${branch(moved)} is kept: it is checked out at ${elsewhere} (\`git worktree remove\` that checkout first)`,
    });
    const f = byId.get(foreign) as { record: string; worktree: { action: string }; branch: { action: string }; note: string };
    expect(f).toMatchObject({ record: "kept", worktree: { action: "kept" }, branch: { action: "kept" } });
    const why = `${realpathSync(foreignGit)} points at ${otherRecord}, which does not point back`;
    expect(f.note).toBe(`its worktree .norma/worktrees/${foreign} could not be removed (${why}); fix or remove it by hand, then prune again`);
    expect(byId.get(plain)).toMatchObject({ record: "removed", worktree: { action: "removed" }, branch: { action: "deleted" }, note: null });

    // What is on disk and in git says the same.
    const state = (await readNormaState(root))!;
    expect(state.runs.map((x) => x.run_id)).toEqual([foreign]);
    expect(existsSync(join(root, ".norma/runs", foreign))).toBe(true);
    expect(existsSync(join(root, ".norma/runs", plain))).toBe(false);
    expect(readFileSync(foreignGit, "utf8")).toBe(`gitdir: ${otherRecord}\n`);
    expect(existsSync(join(elsewhere, "a.txt"))).toBe(true);
    const heads = git(root, ["for-each-ref", "--format=%(refname:short)", "refs/heads/noma-reconcile/run/"]).trim().split("\n").sort();
    expect(heads).toEqual([branch(moved), branch(foreign)].sort());

    // A dry run foresees it, in words.
    const again = cli(root, ["runs", "prune", "--keep-last", "0", "--keep-days", "0", "--dry-run"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(
      `kept run ${foreign} (passed, 2025-01-02): ${f.note}\nWould prune 0 of 1 run (keeping the last 0 and those of the last 0 days); 1 kept, see above.\n`,
    );
  });

  it("killed with -9 after the directories were renamed, the next prune finishes: nothing of a kept run lost, no temp directory left", async () => {
    const root = tempRepo({ "a.txt": "a\n", ".norma/.gitignore": "*\n" });
    const base = git(root, ["rev-parse", "HEAD"]).trim();
    const ids = ["20250101-000000-000001", "20250102-000000-000002", "20250103-000000-000003"];
    await seed(root, ids, base);
    for (const id of ids) git(root, ["worktree", "add", "-q", "-b", branch(id), `.norma/worktrees/${id}`, base]);
    writeFileSync(join(root, ".norma/runs", ids[2]!, "keep.txt"), "the newest run's file\n");

    const killed = cli(root, ["runs", "prune", "--keep-last", "1", "--keep-days", "0"], { NOMA_RECONCILE_TEST_CRASH_AT: "prune-renamed" });
    expect(killed.code, killed.stderr).toBe(-1); // no exit status: killed by its signal
    // Killed between the renames and the transaction: the rows are still there, the directories renamed away.
    expect((await readNormaState(root))!.runs.map((x) => x.run_id).sort()).toEqual(ids);
    expect(readdirSync(join(root, ".norma/runs")).filter((d) => !ids.includes(d))).toHaveLength(2);

    const r = cli(root, ["runs", "prune", "--keep-last", "1", "--keep-days", "0", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).result.removed).toBe(2);
    expect((await readNormaState(root))!.runs.map((x) => x.run_id)).toEqual([ids[2]]);
    expect(readdirSync(join(root, ".norma/runs"))).toEqual([ids[2]]);
    expect(readFileSync(join(root, ".norma/runs", ids[2]!, "keep.txt"), "utf8")).toBe("the newest run's file\n");
    expect(existsSync(join(root, ".norma/worktrees", ids[2]!, "a.txt"))).toBe(true);
    expect(git(root, ["for-each-ref", "--format=%(refname:short)", "refs/heads/noma-reconcile/run/"]).trim()).toBe(branch(ids[2]!));
  });
});
