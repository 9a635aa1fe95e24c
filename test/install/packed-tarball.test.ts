/**
 * Install path (a): `npm pack` of this repository, then in a fresh project of the user's own
 * `npm i -D <pack directory>/noma-reconcile-<version>.tgz` (the tarball left where it was
 * packed, as the README says), and the README's steps (user-flow.ts), which commit no package. The tarball
 * is all the project gets: nothing links back to this source tree, and the install needs no
 * network once `npm ci` has filled the npm cache (the runtime dependencies are bundled).
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-repo.js";
import { Clock, copySource, INSTALL_TIMEOUT_MS, NPM_FLAGS, ok, ROOT, userProject } from "./install-helpers.js";
import { adoptAndUse } from "./user-flow.js";

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

describe("install from a packed tarball", () => {
  it(
    "npm pack → npm i -D <pack dir>/noma-reconcile-<v>.tgz in a fresh project → init --hooks, commits through the hook (no package committed), ci, the MCP server",
    async () => {
      const clock = new Clock();
      const source = tempDir("nr-source-");
      copySource(source);
      const packs = tempDir("nr-packs-");
      const packed = clock.time("npm pack (prepare: build with types)", () => ok("npm", ["pack", "--json", "--pack-destination", packs, ...NPM_FLAGS], source));
      const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; size: number; bundled: string[] }>;
      expect(info!.filename).toBe(`noma-reconcile-${version}.tgz`);
      const dependencies = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
      expect([...info!.bundled].sort()).toEqual([...dependencies].sort());

      const project = tempDir("nr-user-");
      userProject(project);
      // As the README says: the tarball installed from where npm pack wrote it, not copied into the project.
      const tarball = join(packs, info!.filename);
      const installed = clock.time("npm i -D <pack dir>/<tarball>", () => ok("npm", ["i", "-D", tarball, ...NPM_FLAGS], project));
      expect(installed.stdout + installed.stderr).not.toMatch(/ERR!/);
      expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).devDependencies["noma-reconcile"]).toBe(`file:${relative(project, tarball)}`);

      await adoptAndUse(project, clock);
      // The README's `git add -A` steps committed no package: nothing but the user's files and init's.
      const committed = ok("git", ["ls-files"], project)
        .stdout.split("\n")
        .filter((l) => l !== "");
      expect(committed.filter((f) => f.endsWith(".tgz") || f.startsWith("node_modules/"))).toEqual([]);
      expect(committed).toEqual(expect.arrayContaining(["package.json", ".notarai/system.spec.yaml", ".mcp.json"]));
      console.log(clock.summary("install from a packed tarball"));
    },
    INSTALL_TIMEOUT_MS,
  );
});
