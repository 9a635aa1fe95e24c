/** Pull requests through the REST API: find the open one from a head branch into a base, open one, update one, comment on one. */
import type { GitHubApi } from "./github-api.js";

export interface PullRequest {
  number: number;
  html_url: string;
  title: string;
  head: { ref: string };
  base: { ref: string };
}

function repoPath(api: GitHubApi): string {
  const [owner, name] = api.repository.split("/");
  return `/repos/${encodeURIComponent(owner!)}/${encodeURIComponent(name!)}`;
}

/** The open pull request from `head` (a branch of this repository) into `base`, or null. */
export async function findOpenPull(api: GitHubApi, head: string, base: string): Promise<PullRequest | null> {
  const q = new URLSearchParams({ state: "open", head: `${api.owner}:${head}`, base });
  const list = await api.request<PullRequest[]>("GET", `${repoPath(api)}/pulls?${q.toString()}`);
  return Array.isArray(list) && list.length > 0 ? list[0]! : null;
}

export function openPull(api: GitHubApi, p: { head: string; base: string; title: string; body: string }): Promise<PullRequest> {
  return api.request<PullRequest>("POST", `${repoPath(api)}/pulls`, { title: p.title, head: p.head, base: p.base, body: p.body, maintainer_can_modify: true });
}

export function updatePull(api: GitHubApi, number: number, p: { title: string; body: string }): Promise<PullRequest> {
  return api.request<PullRequest>("PATCH", `${repoPath(api)}/pulls/${number}`, { title: p.title, body: p.body });
}

export function commentOnPull(api: GitHubApi, number: number, body: string): Promise<{ html_url: string }> {
  return api.request<{ html_url: string }>("POST", `${repoPath(api)}/issues/${number}/comments`, { body });
}
