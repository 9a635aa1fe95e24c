/**
 * Vitest's global set-up: every temporary directory of a run lives under one directory made for
 * the run (`$TMPDIR/nr-test-run-XXXXXX`), removed when the run ends.
 *
 * The tests remove what they make, but not everything can be: vitest ends its workers without
 * running their `exit` handlers (the per-process templates of init-template.ts and
 * repo-templates.ts), files keep a directory for their whole module, and a process a kill -9 test
 * leaves behind writes where it was. Before this, a full run left 40-odd directories in /tmp.
 * The workers and every process they start inherit TMPDIR, so `os.tmpdir()` is the run's root
 * for all of them (Node reads TMPDIR on each call); the root sits under the machine's temp
 * directory as before, so a test's repository is still outside this project.
 */
import { chmodSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  // Each project of vitest.config.ts runs its global set-up: the first one makes the root.
  if (process.env["NOMA_RECONCILE_TEST_RUN_TMP"] !== undefined) return () => {};
  const outer = process.env["TMPDIR"];
  const root = realpathSync(mkdtempSync(join(tmpdir(), "nr-test-run-")));
  // Open to every user as /tmp is (sticky): some tests run the CLI as an unprivileged user
  // (test/inputs/helpers.ts), which must reach their repositories and make its own temp files.
  chmodSync(root, 0o1777);
  process.env["TMPDIR"] = root;
  process.env["NOMA_RECONCILE_TEST_RUN_TMP"] = root;
  return () => {
    if (outer === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = outer;
    delete process.env["NOMA_RECONCILE_TEST_RUN_TMP"];
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
