/**
 * Drift fixed in CI: `noma-reconcile reconcile` (the Action's mode reconcile) runs the loop with the
 * configured agent, pushes the run's commit and opens or updates a pull request — or commits onto the
 * pull request's branch — through the GitHub REST API. The push goes to a real local bare repository
 * (the checkout's origin); the API is a local HTTP server that records every request and answers as
 * GitHub does (the one stand-in: no network is reachable here), reached through GITHUB_API_URL.
 */
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { markReconciled } from "../../src/reconcile/mark-reconciled.js";
import { CLI } from "../helpers/run-cli.js";
import { git, tempDir } from "../helpers/temp-repo.js";
import { execAgent, lineDiff, runRepoAsync, SPEC } from "./helpers/run-repo.js";

const OLD = "export const greet = (n: string) => `hi ${n}`;";
const NEW = "export const greet = (n: string) => `hello ${n}`; // reconciled";

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

/** The GitHub REST API as far as the CI mode uses it: answers per `METHOD path`, every request recorded. */
class RecordingApi {
  readonly requests: Recorded[] = [];
  private server: Server | null = null;
  openPulls: Array<{ number: number; html_url: string; head: { ref: string }; base: { ref: string }; title: string }> = [];
  /** A status to answer POST /pulls with instead (an error case). */
  failPost: { status: number; message: string } | null = null;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => {
        const body = data.length > 0 ? JSON.parse(data) : null;
        this.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        const send = (status: number, value: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(value));
        };
        const path = req.url!.split("?")[0]!;
        if (req.method === "GET" && path === "/repos/acme/app/pulls") return send(200, this.openPulls);
        if (req.method === "POST" && path === "/repos/acme/app/pulls") {
          if (this.failPost !== null) return send(this.failPost.status, { message: this.failPost.message });
          const pr = { number: 7, html_url: "https://github.example/acme/app/pull/7", head: { ref: body.head }, base: { ref: body.base }, title: body.title };
          return send(201, pr);
        }
        const patch = /^\/repos\/acme\/app\/pulls\/(\d+)$/.exec(path);
        if (req.method === "PATCH" && patch !== null) return send(200, { ...this.openPulls.find((p) => p.number === Number(patch[1])), title: body.title });
        const comment = /^\/repos\/acme\/app\/issues\/(\d+)\/comments$/.exec(path);
        if (req.method === "POST" && comment !== null) return send(201, { html_url: `https://github.example/acme/app/pull/${comment[1]}#issuecomment-1` });
        send(404, { message: "Not Found" });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server === null ? resolve() : this.server.close(() => resolve())));
  }
}

/** The CLI as a process, without blocking this one (the recording server answers in it). */
function runCliAsync(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean: NodeJS.ProcessEnv = { ...process.env, CI: "1", NO_COLOR: "1" };
  for (const k of Object.keys(clean)) if (k.startsWith("GITHUB_")) delete clean[k];
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...clean, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

/** A checkout with drift, a fixing act agent, and a local bare repository as its origin. */
async function ciRepo(): Promise<{ root: string; origin: string }> {
  const root = await runRepoAsync({
    drift: { "src/app.ts": `${OLD}\n` },
    config: { agents: { act: execAgent("act.json") } },
    behaviors: {
      "act.json": { files: { "patch.diff": lineDiff("src/app.ts", OLD, NEW), "reconciled.json": [{ spec: SPEC, path: "src/app.ts" }] } },
    },
  });
  const origin = join(tempDir("nr-origin-"), "app.git");
  git(root, ["init", "-q", "--bare", origin]);
  git(root, ["remote", "add", "origin", origin]);
  git(root, ["push", "-q", "origin", "main"]);
  return { root, origin };
}

let api: RecordingApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

describe("reconcile (the CI mode)", { timeout: 300_000 }, () => {
  it("on a schedule: pushes the run's commit to noma-reconcile/reconcile/main and opens a pull request; the next run updates it", async () => {
    const { root, origin } = await ciRepo();
    api = new RecordingApi();
    const url = await api.start();
    const env = { GITHUB_TOKEN: "t0ken", GITHUB_API_URL: url, GITHUB_REPOSITORY: "acme/app", GITHUB_EVENT_NAME: "schedule", GITHUB_REF_NAME: "main" };
    const r = await runCliAsync(["reconcile", "--format", "json"], root, env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).result;
    const id = out.run.run_id;
    const commit = out.run.commit.commit;
    expect(out.specs).toEqual([SPEC]);
    expect(out.publish).toEqual({
      target: "pull-request",
      pushed: true,
      remote: "origin",
      ref: "noma-reconcile/reconcile/main",
      pull_request: { number: 7, url: "https://github.example/acme/app/pull/7", action: "opened" },
      dry_run_reason: null,
      plan: [
        `push ${commit.slice(0, 12)} to origin as noma-reconcile/reconcile/main (forced: the branch belongs to noma-reconcile)`,
        `open or update the pull request noma-reconcile/reconcile/main → main: "chore(reconcile): reconcile ${SPEC} (run ${id}, PASS)"`,
      ],
    });
    expect(out.message).toBe(
      `run ${id} passed; pushed ${commit.slice(0, 12)} to origin as noma-reconcile/reconcile/main and opened pull request #7 (https://github.example/acme/app/pull/7)`,
    );
    // The push reached the bare repository.
    expect(git(origin, ["rev-parse", "refs/heads/noma-reconcile/reconcile/main"]).trim()).toBe(commit);
    // The API saw exactly: find the open pull request, then open one — with the token and the API version.
    expect(api.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      "GET /repos/acme/app/pulls?state=open&head=acme%3Anoma-reconcile%2Freconcile%2Fmain&base=main",
      "POST /repos/acme/app/pulls",
    ]);
    for (const q of api.requests) {
      expect(q.headers["authorization"]).toBe("Bearer t0ken");
      expect(q.headers["x-github-api-version"]).toBe("2022-11-28");
      expect(q.headers["accept"]).toBe("application/vnd.github+json");
      expect(q.headers["user-agent"]).toMatch(/^noma-reconcile\/\d+\.\d+\.\d+/);
    }
    const posted = api.requests[1]!.body as { title: string; head: string; base: string; body: string; maintainer_can_modify: boolean };
    expect(posted).toMatchObject({
      title: `chore(reconcile): reconcile ${SPEC} (run ${id}, PASS)`,
      head: "noma-reconcile/reconcile/main",
      base: "main",
      maintainer_can_modify: true,
    });
    expect(posted.body).toContain(`Noma-Reconcile-Run: ${id}`);
    expect(posted.body.endsWith(`---\nOpened by \`noma-reconcile reconcile\` (run ${id}, branch noma-reconcile/run/${id}).`)).toBe(true);

    // New drift on main; the pull request is still open: the next run force-pushes the branch and updates it.
    api.openPulls = [
      { number: 7, html_url: "https://github.example/acme/app/pull/7", head: { ref: "noma-reconcile/reconcile/main" }, base: { ref: "main" }, title: "old" },
    ];
    api.requests.length = 0;
    writeFileSync(join(root, "src/app.ts"), `${OLD}\n// more drift\n`);
    writeFileSync(
      join(root, "agents/act.json"),
      JSON.stringify({
        files: {
          "patch.diff": `--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,2 +1,2 @@\n-${OLD}\n+${NEW}\n // more drift\n`,
          "reconciled.json": [{ spec: SPEC, path: "src/app.ts" }],
        },
      }),
    );
    git(root, ["commit", "-qam", "more drift"]);
    const again = await runCliAsync(["reconcile", "--format", "json"], root, env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const second = JSON.parse(again.stdout).result;
    expect(second.publish.pull_request).toEqual({ number: 7, url: "https://github.example/acme/app/pull/7", action: "updated" });
    expect(git(origin, ["rev-parse", "refs/heads/noma-reconcile/reconcile/main"]).trim()).toBe(second.run.commit.commit);
    expect(api.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      "GET /repos/acme/app/pulls?state=open&head=acme%3Anoma-reconcile%2Freconcile%2Fmain&base=main",
      "PATCH /repos/acme/app/pulls/7",
    ]);
  });

  it("without a token: the run's branch stays local, nothing is pushed, and it prints what it would have opened", async () => {
    const { root, origin } = await ciRepo();
    const r = await runCliAsync(["reconcile"], root, { GITHUB_REPOSITORY: "acme/app", GITHUB_REF_NAME: "main" });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const id = git(root, ["for-each-ref", "--format=%(refname:short)", "refs/heads/noma-reconcile/run/"]).trim().replace("noma-reconcile/run/", "");
    const commit = git(root, ["rev-parse", `noma-reconcile/run/${id}`]).trim();
    expect(
      r.stdout.endsWith(
        `\nRun ${id} passed; GITHUB_TOKEN is not set: nothing pushed: the result stays on noma-reconcile/run/${id}; with a token it would push ${commit.slice(0, 12)} to origin as noma-reconcile/reconcile/main (forced: the branch belongs to noma-reconcile), then open or update the pull request noma-reconcile/reconcile/main → main: "chore(reconcile): reconcile ${SPEC} (run ${id}, PASS)".\n`,
      ),
    ).toBe(true);
    expect(git(origin, ["for-each-ref", "--format=%(refname)"]).trim()).toBe("refs/heads/main");
  });

  it("--target pr-branch on a pull_request event: the fix lands on the pull request's branch as a fast-forward, with a comment", async () => {
    const { root, origin } = await ciRepo();
    git(root, ["checkout", "-q", "-b", "feature"]);
    git(root, ["push", "-q", "origin", "feature"]);
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    const event = join(tempDir("nr-event-"), "event.json");
    writeFileSync(
      event,
      JSON.stringify({ pull_request: { number: 12, head: { ref: "feature", sha: head, repo: { full_name: "acme/app" } }, base: { ref: "main" } } }),
    );
    api = new RecordingApi();
    const url = await api.start();
    const env = { GITHUB_TOKEN: "t0ken", GITHUB_API_URL: url, GITHUB_REPOSITORY: "acme/app", GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: event };
    const r = await runCliAsync(["reconcile", "--target", "pr-branch", "--format", "json"], root, env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).result;
    expect(out.publish).toMatchObject({
      target: "pr-branch",
      pushed: true,
      ref: "feature",
      pull_request: { number: 12, url: "https://github.example/acme/app/pull/12#issuecomment-1", action: "commented" },
    });
    expect(git(origin, ["rev-parse", "refs/heads/feature"]).trim()).toBe(out.run.commit.commit);
    expect(git(origin, ["rev-parse", "refs/heads/feature^"]).trim()).toBe(head);
    expect(api.requests.map((q) => `${q.method} ${q.url}`)).toEqual(["POST /repos/acme/app/issues/12/comments"]);
    expect((api.requests[0]!.body as { body: string }).body).toContain(`Committed onto this branch as ${out.run.commit.commit}.`);

    // A checkout that is not the pull request's head (actions/checkout's merge commit): refused, with the fix.
    const other = join(tempDir("nr-event-"), "event.json");
    writeFileSync(other, JSON.stringify({ pull_request: { number: 12, head: { ref: "feature", sha: "f".repeat(40) }, base: { ref: "main" } } }));
    git(root, ["reset", "-q", "--hard", head]);
    writeFileSync(join(root, "src/app.ts"), `${OLD}\n`);
    const refused = await runCliAsync(["reconcile", "--target", "pr-branch"], root, { ...env, GITHUB_EVENT_PATH: other });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `--target pr-branch: the run started from ${head.slice(0, 12)}, not the pull request's head ffffffffffff; check out the head (actions/checkout with ref: \${{ github.event.pull_request.head.ref }}) so the commit lands on it as a fast-forward`,
    );
  });

  it("nothing drifted: nothing runs, nothing is asked of the API; an API refusal is exit 2 with GitHub's message", async () => {
    const { root } = await ciRepo();
    api = new RecordingApi();
    const url = await api.start();
    const env = { GITHUB_TOKEN: "t0ken", GITHUB_API_URL: url, GITHUB_REPOSITORY: "acme/app", GITHUB_REF_NAME: "main" };
    api.failPost = { status: 403, message: "Resource not accessible by integration" };
    const denied = await runCliAsync(["reconcile"], root, env);
    expect(denied.code).toBe(2);
    expect(denied.stderr).toBe(
      "noma-reconcile: GitHub API POST /repos/acme/app/pulls: 403 Forbidden: Resource not accessible by integration (does the workflow's token have `contents: write` and `pull-requests: write`?)\n",
    );
    // Fixed by hand and committed: nothing to reconcile.
    writeFileSync(join(root, "src/app.ts"), `${NEW}\n`);
    git(root, ["commit", "-qam", "fixed by hand"]);
    // Set-up, in process: what `mark-reconciled SPEC src/app.ts` does (that command is tested as a process in its own tests).
    expect((await markReconciled(root, { files: [SPEC, "src/app.ts"] })).not_marked).toEqual([]);
    api.requests.length = 0;
    const r = await runCliAsync(["reconcile", "--format", "json"], root, env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).result).toEqual({ specs: [], run: null, publish: null, message: "no spec has open drift: nothing to reconcile" });
    expect(api.requests).toEqual([]);
  });
});
