/**
 * Install path (b): `npm i -D git+file://<a clone of this repository at HEAD>` in a fresh
 * project (a shallow clone: one commit, as npm clones a hosted repository; install-helpers.ts).
 * npm clones it, installs its dev dependencies from the lockfile and runs `prepare` (the build,
 * with types) in a temporary clone, packs that (the runtime dependencies bundled)
 * and installs the result; then the README's steps (user-flow.ts). A git URL of the hosted
 * repository (`github:<owner>/noma-reconcile#<ref>`) takes the same path.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-repo.js";
import { Clock, INSTALL_TIMEOUT_MS, NPM_FLAGS, ok, shallowCloneHead, userProject } from "./install-helpers.js";
import { adoptAndUse } from "./user-flow.js";

describe("install from a git URL", () => {
  it(
    "npm i -D git+file://<clone> (prepare builds in npm's temporary clone) → init --hooks, commits through the hook, ci, the MCP server",
    async () => {
      const clock = new Clock();
      const clone = join(tempDir("nr-clone-"), "noma-reconcile");
      shallowCloneHead(clone);
      const project = tempDir("nr-user-");
      userProject(project);
      const url = `git+file://${clone}`;
      const installed = clock.time("npm i -D git+file://… (clone, npm install, prepare, pack)", () => ok("npm", ["i", "-D", url, ...NPM_FLAGS], project));
      expect(installed.stdout + installed.stderr).not.toMatch(/ERR!/);
      expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).devDependencies["noma-reconcile"]).toContain(clone);

      await adoptAndUse(project, clock);
      console.log(clock.summary("install from a git URL"));
    },
    INSTALL_TIMEOUT_MS,
  );
});
