/**
 * A failure of git is reported as a failure, never read as an answer (issue 32.11): "not in a
 * repository" only when git says so (or the directory does not exist); a repository git refuses
 * (dubious ownership: the work tree owned by another user) or git missing from PATH is an
 * error — in findRepoRoot and its async twin (the MCP server's), in the CLI (exit 2, git's own
 * words) and in an MCP tool call (an error result naming git's reason); "no" questions about
 * refs (HEAD on an unborn branch) stay null while a refused repository throws.
 */
import { chownSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GitError } from "../../src/git/exec-git.js";
import { findRepoRoot, findRepoRootAsync } from "../../src/git/find-repo-root.js";
import { headCommit } from "../../src/git/read-ref.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";

const IS_ROOT = typeof process.getuid === "function" && process.getuid() === 0;

/** The environment without the GIT_* variables a test runner may carry. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  return { ...env, ...extra };
}

/** A committed repository whose files all belong to another user: git refuses it (safe.directory). */
function foreignRepo(): string {
  const root = tempRepo({ "docs/a.noma": "# A\n\nx\n" });
  const chownAll = (dir: string): void => {
    chownSync(dir, 4242, 4242);
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) chownAll(join(dir, e.name));
      else chownSync(join(dir, e.name), 4242, 4242);
    }
  };
  chownAll(root);
  return root;
}

describe("findRepoRoot", () => {
  it("is null outside a work tree and for a directory that does not exist", async () => {
    const outside = tempDir("nr-outside-");
    // A ceiling keeps git from finding a repository above the temp folder.
    const env = cleanEnv({ GIT_CEILING_DIRECTORIES: outside });
    expect(findRepoRoot(outside, env)).toBeNull();
    expect(findRepoRoot(join(outside, "gone/deeper"), env)).toBeNull();
    expect(await findRepoRootAsync(join(outside, "gone"))).toEqual({ root: join(outside, "gone"), inRepo: false });
  });

  it("throws when git is not on PATH instead of answering 'not in a repository'", () => {
    const root = tempRepo({});
    // GIT_CEILING_DIRECTORIES (empty) makes the in-process discovery leave the question to git.
    const env = cleanEnv({ PATH: join(tempDir("nr-nopath-"), "bin"), GIT_CEILING_DIRECTORIES: "" });
    let thrown: unknown;
    try {
      findRepoRoot(root, env);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(GitError);
    expect((thrown as GitError).message).toBe("git is not installed or not on PATH");
  });

  it.runIf(IS_ROOT)("throws git's refusal of a repository owned by another user, sync and async", async () => {
    const root = foreignRepo();
    mkdirSync(join(root, "sub"));
    let thrown: unknown;
    try {
      findRepoRoot(join(root, "sub"), cleanEnv());
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(GitError);
    expect((thrown as GitError).status).toBe(128);
    expect((thrown as GitError).stderr).toContain(`detected dubious ownership in repository at '${root}'`);
    await expect(findRepoRootAsync(join(root, "sub"))).rejects.toThrow(/detected dubious ownership in repository at/);
  });
});

describe("refs: 'no' is null, a failure throws", () => {
  it("HEAD of an unborn branch is null; in a refused repository it throws", () => {
    const unborn = tempDir("nr-unborn-");
    git(unborn, ["init", "-q", "-b", "main"]);
    expect(headCommit(unborn)).toBeNull();
    if (!IS_ROOT) return;
    const refused = foreignRepo();
    expect(() => headCommit(refused)).toThrow(/detected dubious ownership/);
  });
});

describe.runIf(IS_ROOT)("a repository git refuses, through the CLI and the MCP server", () => {
  it("check exits 2 with git's reason, not 'not in a git repository'", () => {
    const root = foreignRepo();
    const r = runCli(["check"], { cwd: root, env: cleanEnv() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`detected dubious ownership in repository at '${root}'`);
    expect(r.stderr).not.toContain("not in a git repository");
  });

  it("an MCP tool call answers an error naming git's refusal, and the server keeps serving", async () => {
    const root = foreignRepo();
    const client = new McpClient(root, undefined, cleanEnv());
    await client.initialize();
    const first = await client.fails("list_affected_specs");
    expect(first).toContain("cannot find the repository: ");
    expect(first).toContain(`detected dubious ownership in repository at '${root}'`);
    // Not remembered: the next call asks git again (and gets the same answer).
    expect(await client.fails("list_affected_specs")).toBe(first);
    const ping = await client.request("ping");
    expect(ping.result).toEqual({});
    await client.close();
  });
});
