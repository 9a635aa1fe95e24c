import { spawnSync } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import setup from "./run-temp-root.js";
import { tempDir } from "./temp-repo.js";

describe("the run's temporary root (vitest's global set-up)", () => {
  it("holds every temporary directory of this run, in the worker and in what it starts", () => {
    const root = process.env["NOMA_RECONCILE_TEST_RUN_TMP"];
    expect(root, "vitest.config.ts names test/helpers/run-temp-root.ts as globalSetup").toBeDefined();
    expect(tmpdir()).toBe(root);
    expect(statSync(root!).mode & 0o7777, "open to every user, sticky, as /tmp is").toBe(0o1777);
    expect(tempDir().startsWith(`${root}/`)).toBe(true);
    const child = spawnSync("sh", ["-c", 'printf %s "$TMPDIR"'], { encoding: "utf8" });
    expect(child.stdout).toBe(root);
  });

  it("makes a root under the outer temp directory, and on teardown removes it with what it holds and gives TMPDIR back", () => {
    const outerRoot = process.env["NOMA_RECONCILE_TEST_RUN_TMP"];
    const outerTmp = process.env["TMPDIR"];
    delete process.env["NOMA_RECONCILE_TEST_RUN_TMP"];
    let teardown: (() => void) | undefined;
    try {
      teardown = setup();
      const root = process.env["NOMA_RECONCILE_TEST_RUN_TMP"];
      expect(root).toBeDefined();
      expect(root!.startsWith(`${outerTmp}/nr-test-run-`)).toBe(true);
      expect(tmpdir()).toBe(root);
      expect(statSync(root!).mode & 0o7777, "open to every user, sticky, as /tmp is").toBe(0o1777);
      expect(setup(), "a second project's set-up leaves the first root in place").toBeTypeOf("function");
      expect(process.env["TMPDIR"]).toBe(root);
      const left = tempDir("nr-left-behind-");
      writeFileSync(join(left, "file"), "x");
      teardown();
      teardown = undefined;
      expect(existsSync(root!)).toBe(false);
      expect(process.env["TMPDIR"]).toBe(outerTmp);
      expect(process.env["NOMA_RECONCILE_TEST_RUN_TMP"]).toBeUndefined();
    } finally {
      teardown?.();
      process.env["TMPDIR"] = outerTmp;
      process.env["NOMA_RECONCILE_TEST_RUN_TMP"] = outerRoot;
    }
  });
});
