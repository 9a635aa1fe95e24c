/**
 * Pure: the base commit a GitHub event names for the PR check.
 *  - pull_request / pull_request_target: `pull_request.base.sha` (and the head
 *    sha, to recognise the merge commit actions/checkout builds);
 *  - merge_group: `merge_group.base_sha`;
 *  - push: `before`; all zeros means a new branch (no base: use the default branch).
 * Without an event name the payload's shape decides, in that order.
 * @see https://docs.github.com/en/webhooks/webhook-events-and-payloads
 */

export type EventBase =
  | { kind: "commit"; source: "pull_request" | "merge_group" | "push"; sha: string; headSha?: string }
  | { kind: "new-branch"; source: "push" }
  | { kind: "none" };

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const ZERO = /^0+$/;

function get(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const k of path) cur = cur !== null && typeof cur === "object" && !Array.isArray(cur) ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

function sha(v: unknown): string | null {
  return typeof v === "string" && SHA.test(v.toLowerCase()) ? v.toLowerCase() : null;
}

export function baseFromGithubEvent(eventName: string | undefined, event: unknown): EventBase {
  const pr = (): EventBase | null => {
    const base = sha(get(event, "pull_request", "base", "sha"));
    if (base === null) return null;
    const head = sha(get(event, "pull_request", "head", "sha"));
    return head !== null ? { kind: "commit", source: "pull_request", sha: base, headSha: head } : { kind: "commit", source: "pull_request", sha: base };
  };
  const mergeGroup = (): EventBase | null => {
    const base = sha(get(event, "merge_group", "base_sha"));
    return base !== null ? { kind: "commit", source: "merge_group", sha: base } : null;
  };
  const push = (): EventBase | null => {
    const before = get(event, "before");
    if (typeof before === "string" && before.length > 0 && ZERO.test(before)) return { kind: "new-branch", source: "push" };
    const s = sha(before);
    return s !== null ? { kind: "commit", source: "push", sha: s } : null;
  };
  switch (eventName) {
    case "pull_request":
    case "pull_request_target":
    case "pull_request_review":
    case "pull_request_review_comment":
      return pr() ?? { kind: "none" };
    case "merge_group":
      return mergeGroup() ?? { kind: "none" };
    case "push":
      return push() ?? { kind: "none" };
    case undefined:
    case "":
      return pr() ?? mergeGroup() ?? push() ?? { kind: "none" };
    default:
      return { kind: "none" };
  }
}

/** Parse the event file's text; a malformed file is an error (GitHub writes valid JSON). */
export function parseGithubEvent(text: string): unknown {
  return JSON.parse(text) as unknown;
}
