/**
 * Which base the PR check diffs against, in order:
 *  1. `--base <ref>`;
 *  2. the GitHub event (`GITHUB_EVENT_PATH`): a pull request's base (or, when
 *     HEAD is the merge commit actions/checkout builds for it, that commit's
 *     first parent), a merge group's base, a push's `before`;
 *  3. the default branch: `origin/HEAD`, else origin/main, origin/master,
 *     main, master — whichever exists.
 * Refs that look like options are rejected; a ref that does not resolve is an
 * error (exit 2), never an empty diff.
 */
import { NomaError } from "../../errors/noma-error.js";
import { commitOf, originDefaultBranch } from "../../git/read-ref.js";
import { readFileSync } from "node:fs";
import { GitRefError } from "../../git/git-ref-error.js";
import { assertSafeRef } from "../../git/resolve-commit.js";
import { baseFromGithubEvent, parseGithubEvent } from "./github-event-base.js";

export type BaseSource = "option" | "pull_request" | "pull_request-merge-commit" | "merge_group" | "push" | "default-branch";

export interface CiBase {
  ref: string;
  source: BaseSource;
}

/** The default branch as a ref, or null when none can be found. */
export function defaultBranchRef(root: string): string | null {
  const originHead = originDefaultBranch(root);
  if (originHead !== null) return originHead;
  for (const ref of ["refs/remotes/origin/main", "refs/remotes/origin/master", "refs/heads/main", "refs/heads/master"]) {
    if (commitOf(root, ref) !== null) return ref.replace(/^refs\/(remotes|heads)\//, "");
  }
  return null;
}

export class CiBaseError extends NomaError {
  static override readonly errorName: string = "CiBaseError";
  constructor(message: string) {
    super("ci-base", message);
  }
}

export function resolveCiBase(root: string, options: { base?: string; env: NodeJS.ProcessEnv }): CiBase {
  if (options.base !== undefined) {
    assertSafeRef(options.base);
    return { ref: options.base, source: "option" };
  }
  const eventPath = options.env["GITHUB_EVENT_PATH"];
  if (eventPath !== undefined && eventPath !== "") {
    let event: unknown;
    try {
      event = parseGithubEvent(readFileSync(eventPath, "utf8"));
    } catch (e) {
      throw new CiBaseError(`cannot read the GitHub event file ${eventPath} (GITHUB_EVENT_PATH): ${(e as Error).message}`);
    }
    const found = baseFromGithubEvent(options.env["GITHUB_EVENT_NAME"], event);
    if (found.kind === "commit") {
      if (found.source === "pull_request" && found.headSha !== undefined) {
        // actions/checkout checks out refs/pull/N/merge: HEAD^2 is the PR head, HEAD^1 the base tip it was merged onto.
        const second = commitOf(root, "HEAD^2");
        const first = second === found.headSha ? commitOf(root, "HEAD^1") : null;
        if (first !== null) return { ref: first, source: "pull_request-merge-commit" };
      }
      return { ref: found.sha, source: found.source };
    }
  }
  const ref = defaultBranchRef(root);
  if (ref === null)
    throw new GitRefError(
      "unknown-ref",
      "no base to compare with: pass --base <ref> (no GitHub event names one, and there is no origin/HEAD, origin/main, origin/master, main or master)",
    );
  return { ref, source: "default-branch" };
}
