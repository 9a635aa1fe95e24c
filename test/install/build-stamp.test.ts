/**
 * The build's stamp (scripts/build-stamp.mjs): a second `prepare` on the sources dist/ was built
 * from does nothing (npm runs `prepare` twice in a git-URL install), and any change to what the
 * build reads or to what dist/ holds makes it build again. In process, on a small tree laid out as
 * this repository is (the real build is run by the install tests: git-url.test.ts runs both prepares).
 */
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { tempDir, writeTree } from "../helpers/temp-repo.js";
import { ROOT } from "./install-helpers.js";

interface BuildStamp {
  STAMP: string;
  inputsFingerprint(root: string, flags: string[]): string | undefined;
  upToDate(root: string, inputs: string | undefined): boolean;
  writeStamp(root: string, inputs: string): void;
}
const stamp = (await import(pathToFileURL(join(ROOT, "scripts/build-stamp.mjs")).href)) as BuildStamp;

const SOURCES = {
  "package.json": '{"name":"x"}\n',
  "package-lock.json": '{"lockfileVersion":3}\n',
  "tsconfig.json": "{}\n",
  "tsconfig.build.json": "{}\n",
  "node_modules/.package-lock.json": '{"packages":{"node_modules/zod":{"version":"4.6.7"}}}\n',
  "src/index.ts": "export const a = 1;\n",
  "src/cli/main.ts": "export {};\n",
  "scripts/build.mjs": "// build\n",
};
const DIST = { "dist/cli.cjs": "#!/usr/bin/env node\n", "dist/chunks/a.js": "a\n", "dist/types/index.d.ts": "export declare const a = 1;\n" };

let root: string;
/** A build: the inputs taken first, dist/ written, then the stamp. */
const build = (): string => {
  const inputs = stamp.inputsFingerprint(root, ["--types"])!;
  rmSync(join(root, "dist"), { recursive: true, force: true });
  writeTree(root, DIST);
  chmodSync(join(root, "dist/cli.cjs"), 0o755);
  stamp.writeStamp(root, inputs);
  return inputs;
};
const fresh = (): boolean => stamp.upToDate(root, stamp.inputsFingerprint(root, ["--types"]));

describe("the build stamp", () => {
  beforeEach(() => {
    root = tempDir("nr-stamp-");
    writeTree(root, SOURCES);
  });

  it("says dist/ is up to date after a build, and not before one or without a stamp", () => {
    expect(fresh()).toBe(false);
    build();
    expect(fresh()).toBe(true);
    expect(stamp.STAMP).toBe("build-stamp.json");
    rmSync(join(root, "dist", stamp.STAMP));
    expect(fresh()).toBe(false);
  });

  it.each([
    ["a source edited", () => writeTree(root, { "src/index.ts": "export const a = 2;\n" })],
    ["a source added", () => writeTree(root, { "src/new.ts": "export {};\n" })],
    ["a source removed", () => rmSync(join(root, "src/cli/main.ts"))],
    ["a source renamed", () => renameSync(join(root, "src/cli/main.ts"), join(root, "src/cli/main2.ts"))],
    ["a build script edited", () => writeTree(root, { "scripts/build.mjs": "// build, edited\n" })],
    ["package.json edited", () => writeTree(root, { "package.json": '{"name":"y"}\n' })],
    ["the lockfile edited", () => writeTree(root, { "package-lock.json": '{"lockfileVersion":3,"x":1}\n' })],
    ["tsconfig.build.json edited", () => writeTree(root, { "tsconfig.build.json": '{"x":1}\n' })],
    ["another package installed", () => writeTree(root, { "node_modules/.package-lock.json": '{"packages":{}}\n' })],
    ["a file of dist/ edited", () => writeTree(root, { "dist/chunks/a.js": "b\n" })],
    ["a file of dist/ removed", () => rmSync(join(root, "dist/types/index.d.ts"))],
    ["a file added to dist/", () => writeTree(root, { "dist/extra.js": "x\n" })],
    ["the bin's mode changed", () => chmodSync(join(root, "dist/cli.cjs"), 0o644)],
    ["the stamp torn", () => writeFileSync(join(root, "dist", stamp.STAMP), '{"inputs":')],
  ])("builds again after %s", (_what, change) => {
    build();
    expect(fresh()).toBe(true);
    change();
    expect(fresh()).toBe(false);
  });

  it("takes the flags and the Node version into account, and skips nothing without npm's record of node_modules", () => {
    const inputs = build();
    expect(inputs.startsWith(`${process.version} --types `)).toBe(true);
    expect(stamp.upToDate(root, stamp.inputsFingerprint(root, []))).toBe(false);
    rmSync(join(root, "node_modules/.package-lock.json"));
    expect(stamp.inputsFingerprint(root, ["--types"])).toBeUndefined();
    expect(stamp.upToDate(root, undefined)).toBe(false);
  });

  it("a source changed while the build ran (after its inputs were taken) makes the next build run", () => {
    const inputs = stamp.inputsFingerprint(root, ["--types"])!;
    mkdirSync(join(root, "dist"));
    writeTree(root, DIST);
    writeTree(root, { "src/index.ts": "export const a = 3;\n" }); // edited mid-build
    stamp.writeStamp(root, inputs);
    expect(fresh()).toBe(false);
  });
});
