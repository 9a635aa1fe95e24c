/**
 * The in-process top-level discovery must never disagree with `git rev-parse --show-toplevel`:
 * where it answers, git answers the same; where the layout is not plain it leaves the
 * question to git. Real git repositories, worktrees, separate git directories, bare
 * repositories, symbolic links and configurations that move the top level.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { discoverRepoRoot } from "../../src/git/discover-repo-root.js";
import { findRepoRoot } from "../../src/git/find-repo-root.js";
import { git, tempDir } from "../helpers/temp-repo.js";

/** The environment without anything git reads for discovery (what a user's shell has). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  return env;
}

function gitTopLevel(cwd: string, env: NodeJS.ProcessEnv): string | null {
  try {
    return execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || null;
  } catch {
    return null;
  }
}

function init(dir: string, ...args: string[]): void {
  mkdirSync(dir, { recursive: true });
  git(dir, ["init", "-q", "-b", "main", ...args]);
}

function commit(dir: string): void {
  writeFileSync(join(dir, "f.txt"), "x\n");
  git(dir, ["add", "f.txt"]);
  git(dir, ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", "commit", "-qm", "one"]);
}

/** Every directory under root (not descending into .git directories or through links). */
function allDirs(root: string): string[] {
  const out = [root];
  for (const e of readdirSync(root, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name === ".git") continue;
    out.push(...allDirs(join(root, e.name)));
  }
  return out;
}

describe("discoverRepoRoot", () => {
  it("answers what git answers, or leaves it to git, over a world of layouts", () => {
    const world = tempDir("nr-discover-");
    const env = cleanEnv();
    const plain = join(world, "plain");
    init(plain);
    mkdirSync(join(plain, "a/b/c"), { recursive: true });
    commit(plain);
    init(join(plain, "a/nested")); // a repository inside another: the inner one is the top level
    mkdirSync(join(plain, "a/nested/deep"), { recursive: true });
    git(plain, ["worktree", "add", "-q", join(world, "linked")]);
    mkdirSync(join(world, "linked/in"), { recursive: true });
    mkdirSync(join(world, "sep-work/x"), { recursive: true });
    mkdirSync(join(world, "gits"));
    git(join(world, "sep-work"), ["init", "-q", "--separate-git-dir", join(world, "gits/sep.git")]);
    init(join(world, "moved"));
    mkdirSync(join(world, "moved-target/y"), { recursive: true });
    git(join(world, "moved"), ["config", "core.worktree", join(world, "moved-target")]);
    mkdirSync(join(world, "moved/sub"), { recursive: true });
    git(world, ["init", "-q", "--bare", join(world, "bare.git")]);
    init(join(world, "included"));
    writeFileSync(join(world, "included.cfg"), "[core]\n\tbare = false\n");
    git(join(world, "included"), ["config", "include.path", join(world, "included.cfg")]);
    mkdirSync(join(world, "included/z"), { recursive: true });
    mkdirSync(join(plain, "empty-dotgit/.git"), { recursive: true });
    mkdirSync(join(plain, "empty-dotgit/w"), { recursive: true });
    mkdirSync(join(plain, "has-head/q"), { recursive: true });
    writeFileSync(join(plain, "has-head/HEAD"), "not a ref\n");
    mkdirSync(join(plain, "junk-gitfile/r"), { recursive: true });
    writeFileSync(join(plain, "junk-gitfile/.git"), "gitdir: /nowhere/at/all\n");
    mkdirSync(join(world, "outside/o"), { recursive: true });
    symlinkSync(join(plain, "a/b"), join(world, "link-into-plain"));
    symlinkSync(join(world, "linked"), join(plain, "a/link-to-linked"));

    const dirs = [
      ...allDirs(world),
      join(world, "bare.git/refs"),
      join(world, "link-into-plain"),
      join(world, "link-into-plain/c"),
      join(plain, "a/link-to-linked/in"),
    ];
    let answered = 0;
    for (const cwd of dirs) {
      if (!statSync(cwd).isDirectory()) continue;
      const ours = discoverRepoRoot(cwd, env);
      if (ours === undefined) continue;
      answered++;
      expect({ cwd, top: ours }).toEqual({ cwd, top: gitTopLevel(cwd, env) });
    }
    // The plain layouts are answered in process (the point of the module).
    const plainCases: Array<[string, string]> = [
      [plain, plain],
      [join(plain, "a/b/c"), plain],
      [join(plain, "a/nested/deep"), join(plain, "a/nested")],
      [join(world, "linked/in"), join(world, "linked")],
      [join(world, "sep-work/x"), join(world, "sep-work")],
      [join(world, "link-into-plain/c"), plain],
      [join(plain, "a/link-to-linked/in"), join(world, "linked")],
    ];
    for (const [cwd, top] of plainCases) {
      expect(discoverRepoRoot(cwd, env)).toBe(top);
      expect(gitTopLevel(cwd, env)).toBe(top);
    }
    expect(answered).toBeGreaterThanOrEqual(plainCases.length);
    // The layouts that are not plain are left to git.
    for (const cwd of [
      join(world, "moved/sub"),
      join(world, "bare.git/refs"),
      join(world, "included/z"),
      join(plain, "empty-dotgit/w"),
      join(plain, "has-head/q"),
      join(plain, "junk-gitfile/r"),
      join(world, "outside/o"),
      join(plain, ".git/refs"),
    ]) {
      expect({ cwd, ours: discoverRepoRoot(cwd, env) }).toEqual({ cwd, ours: undefined });
    }
    // findRepoRoot agrees with git wherever it answers from, in process or not.
    for (const cwd of [join(world, "moved/sub"), join(plain, "empty-dotgit/w"), join(world, "outside/o"), join(plain, "a/b")]) {
      expect(findRepoRoot(cwd, env)).toBe(gitTopLevel(cwd, env));
    }
  });

  it("leaves discovery to git under every environment variable that changes it", () => {
    const repo = tempDir("nr-discover-env-");
    init(repo);
    mkdirSync(join(repo, "s"));
    const env = cleanEnv();
    expect(discoverRepoRoot(join(repo, "s"), env)).toBe(repo);
    for (const key of [
      "GIT_DIR",
      "GIT_WORK_TREE",
      "GIT_CEILING_DIRECTORIES",
      "GIT_DISCOVERY_ACROSS_FILESYSTEM",
      "GIT_COMMON_DIR",
      "GIT_CONFIG",
      "GIT_OBJECT_DIRECTORY",
    ]) {
      expect({ key, top: discoverRepoRoot(join(repo, "s"), { ...env, [key]: repo }) }).toEqual({ key, top: undefined });
    }
    // `git -c` configuration, as a hook inherits it: only keys that move the top level matter.
    for (const params of ["'core.worktree'='/elsewhere'", "'core.bare'='true'", "'safe.directory'='*'", "'include.path'='/x'"]) {
      expect({ params, top: discoverRepoRoot(join(repo, "s"), { ...env, GIT_CONFIG_PARAMETERS: params }) }).toEqual({ params, top: undefined });
    }
    expect(discoverRepoRoot(join(repo, "s"), { ...env, GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.worktree", GIT_CONFIG_VALUE_0: "/x" })).toBeUndefined();
    expect(discoverRepoRoot(join(repo, "s"), { ...env, GIT_CONFIG_PARAMETERS: "'user.name'='a' 'user.email'='a@b'" })).toBe(repo);
    // GIT_CEILING_DIRECTORIES at the repository: git stops above the subdirectory, and so does findRepoRoot.
    const ceiling = { ...env, GIT_CEILING_DIRECTORIES: repo };
    expect(findRepoRoot(join(repo, "s"), ceiling)).toBe(gitTopLevel(join(repo, "s"), ceiling));
    // Variables that do not change discovery (a hook's GIT_INDEX_FILE) keep the fast path.
    expect(discoverRepoRoot(join(repo, "s"), { ...env, GIT_INDEX_FILE: join(repo, ".git/index"), GIT_EDITOR: ":" })).toBe(repo);
  });

  it("agrees with git on generated trees of repositories, impostor .git entries, HEAD files and links", () => {
    type Kind = "dir" | "repo" | "head-file" | "empty-dotgit" | "gitfile-junk" | "bare-value";
    const kinds: Kind[] = ["dir", "repo", "head-file", "empty-dotgit", "gitfile-junk", "bare-value"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 5 }), fc.nat(4), fc.boolean(), (chain, pick, viaLink) => {
        const world = tempDir("nr-discover-prop-");
        const env = cleanEnv();
        let dir = world;
        const levels: string[] = [];
        chain.forEach((kind, i) => {
          dir = join(dir, `d${i}`);
          mkdirSync(dir, { recursive: true });
          levels.push(dir);
          if (kind === "repo") init(dir);
          if (kind === "bare-value") {
            init(dir);
            git(dir, ["config", "core.bare", "true"]);
          }
          if (kind === "head-file") writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
          if (kind === "empty-dotgit") mkdirSync(join(dir, ".git"));
          if (kind === "gitfile-junk") writeFileSync(join(dir, ".git"), "gitdir: ../nothing-here\n");
        });
        let cwd = levels[Math.min(pick, levels.length - 1)] as string;
        if (viaLink) {
          symlinkSync(cwd, join(world, "via"));
          cwd = join(world, "via");
        }
        const ours = discoverRepoRoot(cwd, env);
        const theirs = gitTopLevel(cwd, env);
        if (ours !== undefined) expect(ours).toBe(theirs);
        expect(findRepoRoot(cwd, env)).toBe(theirs);
      }),
      { numRuns: 40 },
    );
  });
});
