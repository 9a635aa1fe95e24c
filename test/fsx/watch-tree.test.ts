/**
 * watchTree, the per-directory watcher (the one Linux uses): a change in a subdirectory is
 * reported by its repository-relative path; a directory that appears is watched and the files
 * in it reported; .git/ and other skipped directories report nothing. Event-driven: each wait
 * is for the path expected; what came before it is asserted whole.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { watchTree } from "../../src/fsx/watch-tree.js";
import { tempDir } from "../helpers/temp-repo.js";

function watching(root: string): { until: (rel: string) => Promise<string[]> } {
  const seen: string[] = [];
  let wake: (() => void) | undefined;
  const w = watchTree(
    root,
    (rel) => {
      seen.push(rel);
      wake?.();
    },
    { skip: (rel) => rel === ".git" || rel === "skipped", perDirectory: true },
  );
  expect(w.mode).toBe("per-directory");
  onTestFinished(() => w.close());
  return {
    async until(rel) {
      for (;;) {
        const at = seen.indexOf(rel);
        if (at >= 0) return [...new Set(seen.splice(0, at + 1))];
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

describe("watchTree (per directory)", () => {
  it("reports changes under subdirectories, and nothing from skipped ones", { timeout: 30_000 }, async () => {
    const root = tempDir();
    for (const dir of [".git", "skipped/deep", "docs/deep"]) mkdirSync(join(root, dir), { recursive: true });
    const w = watching(root);
    writeFileSync(join(root, ".git/index"), "x");
    writeFileSync(join(root, "skipped/deep/a.noma"), "x");
    writeFileSync(join(root, "docs/deep/a.noma"), "x");
    expect(await w.until("docs/deep/a.noma")).toEqual(["docs/deep/a.noma"]);
  });

  it("watches a directory that appears, and reports the files it brought", { timeout: 30_000 }, async () => {
    const root = tempDir();
    const w = watching(root);
    const outside = tempDir();
    mkdirSync(join(outside, "new/inner"), { recursive: true });
    writeFileSync(join(outside, "new/inner/c.noma"), "x");
    renameSync(join(outside, "new"), join(root, "new"));
    expect(await w.until("new/inner/c.noma")).toEqual(["new", "new/inner/c.noma"]);
    writeFileSync(join(root, "new/inner/d.noma"), "y");
    expect(await w.until("new/inner/d.noma")).toEqual(["new/inner/d.noma"]);
  });
});
