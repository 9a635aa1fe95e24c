/**
 * How many git processes one `run` spawns, counted by git itself (GIT_TRACE: every git process
 * that runs a built-in command writes one `trace: built-in: git …` line, the ones git starts for
 * itself included), in a real run of the CLI: drift in a reconciled repository, the built-in check
 * (FAIL), the act agent's patch, the check again (PASS), marking, the snapshot and the result's
 * commit. A count, not a timing: a new git call in the run's path changes this table on purpose
 * (docs/perf/run.md has the figures).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDir } from "../helpers/temp-repo.js";
import { crashRepo } from "./helpers/crash-run.js";
import { cli, SPEC } from "./helpers/run-repo.js";

/** The git subcommand of one trace line (`-c key=value` options skipped). */
function subcommand(line: string): string {
  const argv = line.slice(line.indexOf("trace: built-in: git ") + "trace: built-in: git ".length).split(" ");
  let i = 0;
  while (argv[i] === "-c") i += 2;
  return argv[i]!;
}

it("one run spawns 39 git processes: each listed by subcommand", () => {
  const root = crashRepo(); // the crash tests' repository: drift, a FAIL, the act patch, a PASS
  const trace = join(tempDir("nr-trace-"), "git-trace.txt");
  const r = cli(root, ["run", "--spec", SPEC, "--format", "json"], { GIT_TRACE: trace });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).result.status).toBe("passed");
  const lines = readFileSync(trace, "utf8")
    .split("\n")
    .filter((l) => l.includes("trace: built-in: git "));
  const tally: Record<string, number> = {};
  for (const l of lines) tally[subcommand(l)] = (tally[subcommand(l)] ?? 0) + 1;
  expect(tally).toEqual({
    // ls-files: the spec listing (4), the worktree listings (index and untracked in one process: 5; the check's changed files take
    // their untracked part from its drift listing; the open-drift count after the FAIL takes the check's drift answer).
    "ls-files": 9,
    // diff-files: the worktree listings (5).
    "diff-files": 5,
    // rev-parse: the start commit, the git state before and after the patch, the snapshot's HEAD, the commit made.
    "rev-parse": 5,
    // apply: --numstat when the act step's patch is planned (the plan is applied from its committed directory as made); --check; the apply.
    apply: 3,
    // status: the user's checkout at the start; the run's worktree before and after the patch.
    status: 3,
    // diff: the changed files since the start (2 checks); the staged result.
    diff: 3,
    "check-ignore": 2,
    // config: user.name and user.email (is an identity set?) in one process.
    config: 1,
    "symbolic-ref": 2,
    // The worktree: git worktree add starts branch and reset itself.
    worktree: 1,
    branch: 1,
    reset: 1,
    add: 1,
    commit: 1,
    // git commit starts it (--auto: nothing to do in a small repository).
    maintenance: 1,
  });
  expect(lines).toHaveLength(39);
});
