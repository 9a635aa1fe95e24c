/** The GitHub Actions event of the workflow run (`GITHUB_EVENT_NAME`, the JSON at `GITHUB_EVENT_PATH`): what the run-loop's CI mode needs of it. */
import { readFileSync } from "node:fs";

export interface PullRequestEvent {
  number: number;
  head: { ref: string; sha: string; repo: string | null };
  base: { ref: string };
}

/** The pull request of a `pull_request` / `pull_request_target` event, or null for any other event (or none). */
export function pullRequestOfEvent(env: NodeJS.ProcessEnv): PullRequestEvent | null {
  const name = env["GITHUB_EVENT_NAME"];
  const path = env["GITHUB_EVENT_PATH"];
  if ((name !== "pull_request" && name !== "pull_request_target") || path === undefined || path === "") return null;
  type Loose = {
    pull_request?: { number?: unknown; head?: { ref?: unknown; sha?: unknown; repo?: { full_name?: unknown } | null }; base?: { ref?: unknown } };
  };
  let ev: Loose | null;
  try {
    ev = JSON.parse(readFileSync(path, "utf8")) as Loose | null;
  } catch {
    return null;
  }
  const pr = ev !== null && typeof ev === "object" ? ev.pull_request : undefined;
  if (pr === null || typeof pr !== "object") return null;
  if (typeof pr.number !== "number" || typeof pr.head?.ref !== "string" || typeof pr.head.sha !== "string" || typeof pr.base?.ref !== "string") return null;
  return {
    number: pr.number,
    head: { ref: pr.head.ref, sha: pr.head.sha, repo: typeof pr.head.repo?.full_name === "string" ? pr.head.repo.full_name : null },
    base: { ref: pr.base.ref },
  };
}
