/**
 * The GitHub REST API, the one place the product speaks HTTP to GitHub: the
 * workflow's token (`GITHUB_TOKEN`), the API's address (`GITHUB_API_URL`,
 * default https://api.github.com; GitHub Enterprise sets its own) and the
 * repository (`GITHUB_REPOSITORY`, `owner/name`) come from the environment
 * GitHub Actions gives every step. Global `fetch` (Node ≥ 20), JSON in and out,
 * the API version pinned; a non-2xx answer is a GitHubApiError naming the
 * request, the status and GitHub's message.
 */
import { NomaError } from "../errors/noma-error.js";

export class GitHubApiError extends NomaError {
  static override readonly errorName: string = "GitHubApiError";
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super("github-api", message);
  }
}

export interface GitHubApi {
  /** owner/name */
  repository: string;
  owner: string;
  request<T>(method: "GET" | "POST" | "PATCH", path: string, body?: unknown): Promise<T>;
}

/** What the environment says about reaching the API: a client, or why there is none (no token, no repository). */
export function gitHubApiFromEnv(env: NodeJS.ProcessEnv, userAgent: string): { api: GitHubApi; problem: null } | { api: null; problem: string } {
  const token = env["GITHUB_TOKEN"];
  const repository = env["GITHUB_REPOSITORY"];
  if (token === undefined || token === "") return { api: null, problem: "GITHUB_TOKEN is not set" };
  if (repository === undefined || !/^[^/\s]+\/[^/\s]+$/.test(repository))
    return {
      api: null,
      problem: `GITHUB_REPOSITORY is ${repository === undefined || repository === "" ? "not set" : `not owner/name (${JSON.stringify(repository)})`}`,
    };
  const base = (env["GITHUB_API_URL"] !== undefined && env["GITHUB_API_URL"] !== "" ? env["GITHUB_API_URL"] : "https://api.github.com").replace(/\/+$/, "");
  const owner = repository.slice(0, repository.indexOf("/"));
  return {
    problem: null,
    api: {
      repository,
      owner,
      async request<T>(method: "GET" | "POST" | "PATCH", path: string, body?: unknown): Promise<T> {
        let res: Response;
        try {
          res = await fetch(`${base}${path}`, {
            method,
            headers: {
              accept: "application/vnd.github+json",
              authorization: `Bearer ${token}`,
              "x-github-api-version": "2022-11-28",
              "user-agent": userAgent,
              ...(body !== undefined ? { "content-type": "application/json" } : {}),
            },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
        } catch (e) {
          throw new GitHubApiError(`GitHub API ${method} ${path}: cannot reach ${base} (${(e as Error).message})`, null);
        }
        const text = await res.text();
        let json: unknown = null;
        try {
          json = text.length > 0 ? JSON.parse(text) : null;
        } catch {
          json = null;
        }
        if (!res.ok) {
          const message = (json as { message?: unknown } | null)?.message;
          throw new GitHubApiError(
            `GitHub API ${method} ${path}: ${res.status} ${res.statusText}${typeof message === "string" ? `: ${message}` : ""}${
              res.status === 403 || res.status === 404 ? " (does the workflow's token have `contents: write` and `pull-requests: write`?)" : ""
            }`,
            res.status,
          );
        }
        return json as T;
      },
    },
  };
}
