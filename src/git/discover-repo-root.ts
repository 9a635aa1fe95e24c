/**
 * The work tree's top level found in process, the way git finds it, for the cases that
 * are plain: every command needs the top level first, and `git rev-parse --show-toplevel`
 * is a process spawn, paid by every pre-commit hook and every one-shot `check` and `patch`
 * (docs/perf/check.md).
 *
 * Git walks up from the working directory and stops at the first directory that holds a
 * `.git` (a git directory or a `gitdir:` file) or is itself a bare git directory. This
 * module does that walk over the real path (git prints the top level with symbolic links
 * resolved) and answers only when nothing could make git answer differently; otherwise it
 * returns `undefined` and the caller asks git. It gives up on:
 * - any environment variable that changes discovery (`GIT_DIR`, `GIT_WORK_TREE`,
 *   `GIT_CEILING_DIRECTORIES`, …), or command-line configuration (`git -c`, which a hook
 *   inherits as `GIT_CONFIG_PARAMETERS`) that names core.worktree, core.bare,
 *   safe.directory or an include;
 * - a working directory inside a `.git` directory, or a directory on the way up that is
 *   itself a git directory (a bare repository) or holds a file named `HEAD`;
 * - a file system boundary crossed on the way up;
 * - a `.git` that is not a directory or a `gitdir:` file whose target is a git directory;
 * - a repository configuration that names `worktree` (core.worktree), `bare` with any value
 *   but `false`, or any `include` (the included file could set them), or a `config.worktree`;
 * - a `.git`, its git directory or the top level owned by another user (git's
 *   safe.directory check would refuse the repository);
 * - Windows (git prints drive letters with forward slashes there).
 * A property test compares it with `git rev-parse --show-toplevel` over generated trees.
 */
import { lstatSync, readFileSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";

/** Environment variables under which only git can say where the top level is. */
const DISCOVERY_ENV =
  /^GIT_(DIR|WORK_TREE|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|COMMON_DIR|CONFIG|TEST_.*|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE)$/;
/** Configuration given on the command line (`git -c`, as a hook inherits it): only these keys matter. */
const CONFIG_ENV = /^GIT_CONFIG_(PARAMETERS|KEY_\d+)$/;
const DISCOVERY_KEYS = /core\.(worktree|bare)|safe\.directory|include/i;

/** Where git would find the repository from `cwd`: its top level and its git directory. */
export interface DiscoveredRepo {
  /** The top level, as `git rev-parse --show-toplevel` prints it. */
  top: string;
  /** The git directory (`<top>/.git`, or where a `gitdir:` file points: a linked worktree's own). */
  gitDir: string;
}

/** The top level git would print for `cwd`, or `undefined` when git must be asked. */
export function discoverRepoRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return discoverRepo(cwd, env)?.top;
}

/** The top level and git directory git would use for `cwd`, or `undefined` when git must be asked (the same cases). */
export function discoverRepo(cwd: string, env: NodeJS.ProcessEnv = process.env): DiscoveredRepo | undefined {
  try {
    return walkUp(cwd, env);
  } catch {
    return undefined; // an unreadable directory or file on the way: git says what it makes of it
  }
}

function walkUp(cwd: string, env: NodeJS.ProcessEnv): DiscoveredRepo | undefined {
  if (process.platform === "win32") return undefined;
  for (const [key, value] of Object.entries(env)) {
    if (DISCOVERY_ENV.test(key)) return undefined;
    if (CONFIG_ENV.test(key) && DISCOVERY_KEYS.test(value ?? "")) return undefined;
  }
  let dir = realpathSync(cwd);
  if (dir.split(sep).includes(".git")) return undefined;
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  let dev: number | undefined;
  for (;;) {
    const here = statOrNull(dir);
    if (here === null || !here.isDirectory()) return undefined;
    if (dev === undefined) dev = here.dev;
    else if (here.dev !== dev) return undefined;
    const dotGit = lstatOrNull(join(dir, ".git"));
    if (dotGit !== null) return topLevelAt(dir, here, dotGit, uid);
    // A directory that is itself a git directory (bare) stops git's walk: leave it to git.
    if (lstatOrNull(join(dir, "HEAD")) !== null) return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function topLevelAt(dir: string, dirStat: Stats, dotGit: Stats, uid: number | undefined): DiscoveredRepo | undefined {
  let gitDir: string;
  if (dotGit.isDirectory()) gitDir = join(dir, ".git");
  else if (dotGit.isFile()) {
    const target = gitfileTarget(join(dir, ".git"));
    if (target === undefined) return undefined;
    gitDir = isAbsolute(target) ? target : resolve(dir, target);
  } else return undefined;
  const gitDirStat = statOrNull(gitDir);
  if (gitDirStat === null || !gitDirStat.isDirectory()) return undefined;
  // A linked worktree's git directory names the common one, whose objects, refs and configuration apply too.
  const common = readOrUndefined(join(gitDir, "commondir"));
  const commonDir = common !== undefined ? resolve(gitDir, common.trim()) : undefined;
  if (!isGitDirectory(gitDir, commonDir ?? gitDir)) return undefined;
  if (uid !== undefined && (dirStat.uid !== uid || dotGit.uid !== uid || gitDirStat.uid !== uid)) return undefined;
  if (!plainConfig(join(gitDir, "config")) || readOrUndefined(join(gitDir, "config.worktree")) !== undefined) return undefined;
  if (commonDir !== undefined && !plainConfig(join(commonDir, "config"))) return undefined;
  return { top: dir, gitDir };
}

/** Git's test for a git directory: HEAD, and objects/ and refs/ (in the common directory of a linked worktree). */
function isGitDirectory(gitDir: string, commonDir: string): boolean {
  const head = lstatOrNull(join(gitDir, "HEAD"));
  if (head === null || !head.isFile()) return false;
  // Git checks what HEAD holds: a symbolic ref under refs/ or an object id.
  const text = readOrUndefined(join(gitDir, "HEAD")) ?? "";
  if (!/^(ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\r?\n?$/.test(text)) return false;
  return statOrNull(join(commonDir, "objects"))?.isDirectory() === true && statOrNull(join(commonDir, "refs"))?.isDirectory() === true;
}

/** The `gitdir:` line of a `.git` file, or undefined when the file is not one. */
function gitfileTarget(path: string): string | undefined {
  const text = readOrUndefined(path);
  if (text === undefined) return undefined;
  const m = /^gitdir: (.+?)\r?\n?$/.exec(text);
  return m?.[1];
}

/** A repository configuration without anything that moves the top level (missing is plain). */
function plainConfig(path: string): boolean {
  const text = readOrUndefined(path);
  if (text === undefined) return true;
  if (/^\s*(worktree|include|includeif)\b/im.test(text) || /^\s*\[\s*include/im.test(text)) return false;
  // `git init` writes `bare = false`; any other value of bare is left to git.
  for (const m of text.matchAll(/^\s*bare\b(.*)$/gim)) if (!/^\s*=\s*false\s*$/i.test(m[1] ?? "")) return false;
  return true;
}

function readOrUndefined(path: string): string | undefined {
  return statOrNull(path)?.isFile() === true ? readFileSync(path, "utf8") : undefined;
}

function statOrNull(path: string): Stats | null {
  return statSync(path, { throwIfNoEntry: false }) ?? null;
}

function lstatOrNull(path: string): Stats | null {
  return lstatSync(path, { throwIfNoEntry: false }) ?? null;
}
