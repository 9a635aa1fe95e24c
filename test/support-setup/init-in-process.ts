/**
 * What `noma-reconcile init` (no --hooks, no --agent; exit 0) writes, in process: for the tests
 * whose repository only has to be set up (an MCP server's notes, the tools it serves), not for
 * the tests of init, which spawn the CLI (test/init). The CLI's init is `initProject` and then,
 * where a hook manager is set up, its entry printed (written only with --hooks): so a repository
 * without one gets the very files the CLI writes (checked once by diffing both trees, issue 38 §3).
 */
import { expect } from "vitest";
import { type InitResult, initProject } from "../../src/init/init-project.js";
import { detectHookManagers } from "../../src/init/set-up-hook-managers.js";

export async function initInProcess(repo: string): Promise<InitResult> {
  // Where a hook manager is set up, the CLI does more than initProject: spawn it there.
  expect(detectHookManagers(repo)).toEqual([]);
  return initProject(repo);
}
