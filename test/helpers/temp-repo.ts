/**
 * Throwaway git repositories described as objects: { "path/in/repo": "contents" }.
 * Created under the OS temp dir (never inside this project) and removed after the test.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { onTestFinished } from "vitest";

export type Tree = Record<string, string | Buffer>;

export function git(cwd: string, args: string[], input?: string): string {
  return execFileSync("git", args, {
    cwd,
    input,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" },
  });
}

export function writeTree(root: string, tree: Tree): void {
  for (const [rel, content] of Object.entries(tree)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/** A temp directory (not a repository), removed when the test finishes. */
export function tempDir(prefix = "nr-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    /* outside a test: caller cleans up */
  }
  return dir;
}

/** A new repository with `tree` written and (unless `commit: false`) committed on branch main. */
export function tempRepo(tree: Tree = {}, options: { commit?: boolean } = {}): string {
  const dir = tempDir("nr-repo-");
  git(dir, ["init", "-q", "-b", "main"]);
  git(dir, ["config", "user.name", "Test"]);
  git(dir, ["config", "user.email", "test@example.invalid"]);
  git(dir, ["config", "commit.gpgsign", "false"]);
  writeTree(dir, tree);
  if (options.commit !== false && Object.keys(tree).length > 0) {
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "initial"]);
  }
  return dir;
}
