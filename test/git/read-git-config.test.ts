/**
 * readGitConfig: an unset key is null (git's exit 1); a config file git cannot parse is git's
 * error with git's words, never read as "unset" (a hook installer would otherwise write into
 * .git/hooks while core.hooksPath, unreadable, points elsewhere).
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GitError } from "../../src/git/exec-git.js";
import { readGitConfig } from "../../src/git/read-ref.js";
import { git, tempRepo } from "../helpers/temp-repo.js";

describe("readGitConfig", () => {
  it("reads a set key, null for an unset one, and throws git's error for a config file git cannot parse", () => {
    const root = tempRepo({ "a.txt": "a\n" });
    git(root, ["config", "core.hooksPath", ".githooks"]);
    expect(readGitConfig(root, "core.hooksPath")).toBe(".githooks");
    expect(readGitConfig(root, "noma.unset")).toBeNull();
    appendFileSync(join(root, ".git/config"), "[core\n\tbroken = \n");
    let thrown: unknown;
    try {
      readGitConfig(root, "core.hooksPath");
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(GitError);
    expect((thrown as GitError).status).toBe(128);
    expect((thrown as GitError).stderr).toMatch(/^fatal: bad config line \d+ in file \.git\/config$/m);
  });
});
