/**
 * `diff --spec` asks git one question about the branch (branch-diff.ts): one diff against the
 * merge-base with raw records, numstat and patches, instead of one git call per question
 * with a pathspec per file. These tests hold it to what git prints when asked per path:
 * every record's patch, the numstat, the clean/modified facts of `diff-files`, and the
 * `diff` of `get_spec_diff` (cut from the one diff, or asked per path when a rename pairs a
 * listed file with an unlisted one), in repositories with renames, a file turned symlink, a
 * mode change, names git quotes, binary files, deletions in the index and in the work tree,
 * staged-then-edited files and skip-worktree entries.
 */
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getSpecDiff, markReconciled } from "../../src/internal.js";
import { DIFF_COMMON, parseBranchDiff, isNullObject } from "../../src/git/branch-diff.js";
import { branchWorktreeStatus } from "../../src/git/branch-worktree-status.js";
import { indexWithoutExtendedFlags, parseSkipWorktree, skipWorktreePaths } from "../../src/git/skip-worktree-paths.js";
import { parseNumstatZ } from "../../src/git/parse-numstat.js";
import { parseNameStatusZ } from "../../src/git/parse-name-status.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";
import { branch, commitAll, remove, write } from "../reconcile/helpers/repo-ops.js";

const SPEC = ".notarai/app.spec.yaml";

/** A branch touching every kind of change, some committed, some staged, some only in the work tree. */
function busyBranch(): { root: string; base: string } {
  const lines = (tag: string): string => Array.from({ length: 30 }, (_, i) => `${tag} line ${i}\n`).join("");
  const root = tempRepo({
    [SPEC]: specYaml({ artifacts: { code: ["src/**"] } }),
    "src/edit.txt": lines("edit"),
    "src/moved.txt": lines("moved"),
    "src/cross.txt": lines("cross"),
    "src/link.txt": "becomes a symlink\n",
    "src/run.sh": "#!/bin/sh\n",
    "src/gone-index.txt": "deleted in the index\n",
    "src/gone-tree.txt": "deleted in the work tree\n",
    "src/tab\tname.txt": "quoted by git\n",
    "src/ünï.txt": "non-ASCII name\n",
    'src/quote"d.txt': "a quote in the name\n",
    "src/image.bin": Buffer.from([0, 1, 2, 3, 0, 5]),
    "outside/keep.txt": "not governed\n",
  });
  const base = git(root, ["rev-parse", "HEAD"]).trim();
  branch(root, "feature");
  write(root, "src/edit.txt", `${lines("edit")}committed\n`);
  git(root, ["mv", "src/moved.txt", "src/moved-to.txt"]);
  commitAll(root, "feature work");
  write(root, "src/edit.txt", `${lines("edit")}committed\nand edited\n`);
  git(root, ["mv", "src/cross.txt", "outside/cross.txt"]);
  remove(root, "src/link.txt");
  symlinkSync("run.sh", join(root, "src/link.txt"));
  git(root, ["update-index", "--chmod=+x", "src/run.sh"]);
  git(root, ["rm", "-q", "src/gone-index.txt"]);
  remove(root, "src/gone-tree.txt");
  write(root, "src/tab\tname.txt", "quoted by git\nedited\n");
  write(root, "src/ünï.txt", "non-ASCII name\nedited\n");
  write(root, 'src/quote"d.txt', "a quote in the name\nedited\n");
  write(root, "src/image.bin", Buffer.from([0, 9, 9, 9, 0, 5]));
  write(root, "src/staged.txt", "staged\n");
  git(root, ["add", "src/staged.txt"]);
  write(root, "src/staged.txt", "staged\nthen edited\n");
  write(root, "src/new.txt", "untracked\n");
  return { root, base };
}

function branchDiff(root: string, base: string) {
  return parseBranchDiff(git(root, ["diff", "--raw", "--numstat", "-p", "-z", "--no-abbrev", ...DIFF_COMMON, base, "--"]));
}

describe("the branch diff", () => {
  it("gives every record the patch git prints for its paths alone, and git's numstat", () => {
    const { root, base } = busyBranch();
    const d = branchDiff(root, base);
    expect(d.patches).not.toBeNull();
    expect(d.raw.length).toBeGreaterThanOrEqual(10);
    expect(d.raw.some((e) => e.status === "R")).toBe(true);
    expect(d.raw.some((e) => e.status === "T")).toBe(true);
    d.raw.forEach((e, k) => {
      const paths = e.oldPath !== undefined ? [e.oldPath, e.path] : [e.path];
      expect(d.patches![k]).toBe(git(root, ["diff", ...DIFF_COMMON, base, "--", ...paths.map((p) => `:(literal)${p}`)]));
    });
    expect(d.numstat).toEqual(parseNumstatZ(git(root, ["diff", "--numstat", "-z", ...DIFF_COMMON, base, "--"])));
    // The records say what `--name-status` says.
    const names = parseNameStatusZ(
      git(root, ["diff", "--name-status", "-z", "--find-renames", "--no-ext-diff", "--no-textconv", "--ignore-submodules=none", base, "--"]),
    );
    expect(d.raw.map(({ status, path, oldPath }) => ({ status, path, ...(oldPath !== undefined ? { oldPath } : {}) }))).toEqual(names);
  });

  it("reports the object id of a file's work-tree content, or nothing when git did not compute it", () => {
    const { root, base } = busyBranch();
    const status = branchWorktreeStatus(branchDiff(root, base).raw, new Set());
    const index = new Map(
      git(root, ["ls-files", "-s", "-z"])
        .split("\0")
        .filter((l) => l.length > 0)
        .map((l) => [l.slice(l.indexOf("\t") + 1), l.split(" ")[1]!] as const),
    );
    const dirty = new Set(
      git(root, ["diff-files", "--name-only", "-z"])
        .split("\0")
        .filter((p) => p.length > 0),
    );
    expect(status.get("src/moved-to.txt")).toMatchObject({ tracked: true, modified: false, blob: index.get("src/moved-to.txt") });
    expect(status.get("src/edit.txt")).toMatchObject({ tracked: true, modified: true, blob: null });
    for (const [path, e] of status) {
      // A stat-clean file's id is its index blob's; git computes others from the file (a staged then edited one).
      if (!e.modified && e.mode !== "120000") expect(e.blob, path).toBe(git(root, ["hash-object", "--", path]).trim());
      if (dirty.has(path) && path !== "src/staged.txt") expect(e.modified, path).toBe(true);
    }
    // Deleted and untracked paths are left to the caller's stat.
    expect(status.has("src/gone-index.txt")).toBe(false);
    expect(status.has("src/gone-tree.txt")).toBe(false);
    expect(status.has("src/new.txt")).toBe(false);
  });

  it("is refused (and git is asked per path) when its sections cannot be matched to its records", () => {
    const { root, base } = busyBranch();
    const out = git(root, ["diff", "--raw", "--numstat", "-p", "-z", "--no-abbrev", ...DIFF_COMMON, base, "--"]);
    expect(parseBranchDiff(out).patches).not.toBeNull();
    // A section dropped, or text before the first one: no patches rather than wrong ones.
    const cut = out.replace(/diff --git a\/src\/edit\.txt[\s\S]*?(?=diff --git )/, "");
    expect(parseBranchDiff(cut).patches).toBeNull();
    expect(parseBranchDiff(out.replace(/\0\0diff --git/, "\0\0junk\ndiff --git")).patches).toBeNull();
  });
});

describe("get_spec_diff over the branch diff", () => {
  it("prints git's diff of the listed files: cut from the one diff, or per path when a rename leaves the governed set", async () => {
    const { root, base } = busyBranch();
    const d = await getSpecDiff(root, { specPath: SPEC, baseBranch: "main" });
    const tracked = d.files.filter((f) => f !== "src/new.txt" && f !== "src/staged.txt").filter((f) => !d.binary_changes.includes(f));
    expect(d.files).toContain("src/cross.txt"); // deleted side of a rename out of src/: the fallback path
    expect(d.binary_changes).toEqual(["src/image.bin"]);
    const expected = git(root, ["diff", ...DIFF_COMMON, base, "--", ...[...tracked, "src/staged.txt"].sort().map((p) => `:(literal)${p}`)]);
    expect(d.diff.startsWith(expected)).toBe(true);
    expect(d.diff.slice(expected.length)).toMatch(/^diff --git a\/src\/new\.txt b\/src\/new\.txt\nnew file mode 100644\n/);

    // Without the rename out of the governed set, the diff is cut from the one git call: the same bytes.
    git(root, ["mv", "outside/cross.txt", "src/cross.txt"]);
    const again = await getSpecDiff(root, { specPath: SPEC, baseBranch: "main" });
    const trackedAgain = again.files.filter((f) => f !== "src/new.txt").filter((f) => !again.binary_changes.includes(f));
    expect(again.files).not.toContain("outside/cross.txt");
    expect(again.diff).toBe(
      git(root, ["diff", ...DIFF_COMMON, base, "--", ...trackedAgain.map((p) => `:(literal)${p}`)]) +
        again.diff.slice(again.diff.indexOf("diff --git a/src/new.txt")),
    );
  });

  it("never takes a skip-worktree entry's index blob for its work-tree content", async () => {
    const root = tempRepo({ [SPEC]: specYaml({ artifacts: { code: ["src/**"] } }), "src/sparse.txt": "v1\n", "src/other.txt": "o\n" });
    expect(indexWithoutExtendedFlags(join(root, ".git/index"))).toBe(true);
    branch(root, "feature");
    write(root, "src/sparse.txt", "v2\n");
    commitAll(root, "v2");
    await markReconciled(root, { files: ["src/sparse.txt"] });
    // Reconciled at v2; then the file leaves the work tree (a sparse checkout), its index entry stays.
    git(root, ["update-index", "--skip-worktree", "src/sparse.txt"]);
    remove(root, "src/sparse.txt");
    expect(indexWithoutExtendedFlags(join(root, ".git/index"))).toBe(false);
    expect(await skipWorktreePaths(root)).toEqual(new Set(["src/sparse.txt"]));
    const d = await getSpecDiff(root, { specPath: SPEC, baseBranch: "main" });
    expect(d.files).toEqual(["src/sparse.txt"]);
    expect(d.skipped).toEqual([]);
  });

  it("parses git's tags for skip-worktree entries", () => {
    expect(parseSkipWorktree("H a\0S b c\0s d\0? e\0")).toEqual(new Set(["b c", "d"]));
    expect(isNullObject("0".repeat(40))).toBe(true);
    expect(isNullObject(`${"0".repeat(39)}1`)).toBe(false);
  });
});
