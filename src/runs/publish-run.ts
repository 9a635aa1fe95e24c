/**
 * The CI mode's last move (`noma-reconcile reconcile`): a passed run's commit
 * published for review through git and the GitHub REST API, with the
 * workflow's token.
 *
 * - `pull-request` (default): the commit is pushed (forced: the branch is the
 *   tool's own) to `noma-reconcile/reconcile/<base>` — one branch per base, so a
 *   later run updates the same pull request — and the open pull request from it
 *   into the base is updated, or one is opened. The base: `--pr-base`, else the
 *   head branch of the pull request the workflow runs for, else `GITHUB_REF_NAME`,
 *   else the branch checked out.
 * - `pr-branch` (pull_request events only): the commit is pushed onto the pull
 *   request's own branch (a fast-forward: the run started from its head, which
 *   the checkout must be) and a comment says what the run did.
 *
 * Without a token (`GITHUB_TOKEN`) nothing is pushed: the run's branch stays
 * local and the result says what would have been pushed and opened.
 */
import { currentBranch } from "../git/read-ref.js";
import { pushCommit } from "../git/push-ref.js";
import { gitHubApiFromEnv } from "../github/github-api.js";
import { pullRequestOfEvent } from "../github/github-event.js";
import { commentOnPull, findOpenPull, openPull, updatePull } from "../github/pull-requests.js";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import { RunSetupError } from "./run-setup-error.js";

export const PUBLISH_TARGETS = ["pull-request", "pr-branch"] as const;
export type PublishTarget = (typeof PUBLISH_TARGETS)[number];

export interface PublishRequest {
  root: string;
  env: NodeJS.ProcessEnv;
  target: PublishTarget;
  remote: string;
  /** The run: its id, branch, the commit to publish and the commit it started from. */
  runId: string;
  branch: string;
  commit: string;
  base: string;
  /** The commit's subject and body (the pull request's title and description). */
  title: string;
  body: string;
  prBase?: string;
  prBranch?: string;
}

export interface PublishResult {
  target: PublishTarget;
  pushed: boolean;
  remote: string;
  /** The branch pushed to (or that would be). */
  ref: string;
  /** The pull request opened, updated or commented on (null when nothing was published). */
  pull_request: { number: number; url: string; action: "opened" | "updated" | "commented" } | null;
  /** Why nothing was published (no token), with what would have been done; null when published. */
  dry_run_reason: string | null;
  /** What was done (or would be), one line each. */
  plan: string[];
}

function prBaseOf(r: PublishRequest): string {
  if (r.prBase !== undefined) return r.prBase;
  const pr = pullRequestOfEvent(r.env);
  if (pr !== null) return pr.head.ref;
  const ref = r.env["GITHUB_REF_NAME"];
  if (ref !== undefined && ref !== "") return ref;
  const here = currentBranch(r.root);
  if (here === null)
    throw new RunSetupError("no branch to open the pull request into: pass --pr-base BRANCH (HEAD is detached and GITHUB_REF_NAME is not set)");
  return here;
}

export async function publishRun(r: PublishRequest): Promise<PublishResult> {
  const ua = `${TOOL_NAME}/${TOOL_VERSION}`;
  const { api, problem } = gitHubApiFromEnv(r.env, ua);
  if (r.target === "pr-branch") {
    const pr = pullRequestOfEvent(r.env);
    if (pr === null)
      throw new RunSetupError(
        "--target pr-branch commits onto the pull request's branch: it needs a pull_request event (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH); on a " +
          "schedule or push use --target pull-request",
      );
    if (pr.head.sha !== r.base)
      throw new RunSetupError(
        `--target pr-branch: the run started from ${r.base.slice(0, 12)}, not the pull request's head ${pr.head.sha.slice(0, 12)}; check out the ` +
          `head (actions/checkout with ref: \${{ github.event.pull_request.head.ref }}) so the commit lands on it as a fast-forward`,
      );
    const plan = [`push ${r.commit.slice(0, 12)} onto ${pr.head.ref} (${r.remote}), the branch of pull request #${pr.number}`, `comment on #${pr.number}`];
    if (api === null)
      return { target: r.target, pushed: false, remote: r.remote, ref: pr.head.ref, pull_request: null, dry_run_reason: `${problem}: nothing pushed`, plan };
    pushCommit(r.root, r.remote, r.commit, pr.head.ref, { force: false });
    const c = await commentOnPull(api, pr.number, `${r.title}\n\n${r.body}\n\nCommitted onto this branch as ${r.commit}.`);
    return {
      target: r.target,
      pushed: true,
      remote: r.remote,
      ref: pr.head.ref,
      pull_request: { number: pr.number, url: c.html_url, action: "commented" },
      dry_run_reason: null,
      plan,
    };
  }
  const base = prBaseOf(r);
  const head = r.prBranch ?? `noma-reconcile/reconcile/${base}`;
  const plan = [
    `push ${r.commit.slice(0, 12)} to ${r.remote} as ${head} (forced: the branch belongs to ${TOOL_NAME})`,
    `open or update the pull request ${head} → ${base}: "${r.title}"`,
  ];
  if (api === null)
    return { target: r.target, pushed: false, remote: r.remote, ref: head, pull_request: null, dry_run_reason: `${problem}: nothing pushed`, plan };
  pushCommit(r.root, r.remote, r.commit, head, { force: true });
  const body = `${r.body}\n\n---\nOpened by \`${TOOL_NAME} reconcile\` (run ${r.runId}, branch ${r.branch}).`;
  const open = await findOpenPull(api, head, base);
  if (open !== null) {
    const p = await updatePull(api, open.number, { title: r.title, body });
    return {
      target: r.target,
      pushed: true,
      remote: r.remote,
      ref: head,
      pull_request: { number: p.number, url: p.html_url, action: "updated" },
      dry_run_reason: null,
      plan,
    };
  }
  const p = await openPull(api, { head, base, title: r.title, body });
  return {
    target: r.target,
    pushed: true,
    remote: r.remote,
    ref: head,
    pull_request: { number: p.number, url: p.html_url, action: "opened" },
    dry_run_reason: null,
    plan,
  };
}
