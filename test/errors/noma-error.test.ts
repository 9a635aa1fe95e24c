/**
 * The error taxonomy: every class the product raises on purpose is a NomaError with a
 * string code and a kind; `instanceof` holds for a copy of a class bundled separately (the
 * CLI's command bodies), which carries the names of its class chain under a global symbol;
 * the shells classify by kind.
 */
import { describe, expect, it } from "vitest";
import { classifyError } from "../../src/errors/classify-error.js";
import { NomaError, RuntimeError, UsageError } from "../../src/errors/noma-error.js";
import { PathOutsideRepoError } from "../../src/fsx/contain-path.js";
import { LockTimeoutError } from "../../src/fsx/with-file-lock.js";
import { GitError } from "../../src/git/exec-git.js";
import { PatchError } from "../../src/patch/patch-error.js";
import { ReconcileError } from "../../src/reconcile/reconcile-error.js";
import { WorkspaceError } from "../../src/workspace/workspace-error.js";

/** What a copy of `name`'s class from another bundle looks like to this one: another prototype, the same chain of names. */
function foreignCopy(chain: string[], message = "from another bundle"): Error {
  const e = new Error(message);
  Object.defineProperty(e, Symbol.for("noma-reconcile.error-chain"), { value: chain });
  return Object.assign(e, { code: "lock-timeout", kind: "expected" });
}

describe("the error taxonomy", () => {
  it("each class has a string code, a kind and its own name", () => {
    const cases: Array<[NomaError, string, string, string]> = [
      [new UsageError("bad flag"), "UsageError", "usage", "usage"],
      [new RuntimeError("no repo"), "RuntimeError", "runtime", "expected"],
      [new PathOutsideRepoError("../x", "/r"), "PathOutsideRepoError", "path-outside-repo", "usage"],
      [new LockTimeoutError("/r/.l", "pid 1", "timed out"), "LockTimeoutError", "lock-timeout", "expected"],
      [new GitError("git failed", ["status"], 128, "fatal"), "GitError", "git-failed", "expected"],
      [new ReconcileError("path-not-found", "typo"), "ReconcileError", "path-not-found", "expected"],
      [new WorkspaceError("invalid_path", "no"), "WorkspaceError", "invalid_path", "expected"],
      [new PatchError("target_missing", "no such id"), "PatchError", "target_missing", "internal"],
    ];
    for (const [err, name, code, kind] of cases) {
      expect(err).toBeInstanceOf(NomaError);
      expect(err).toBeInstanceOf(Error);
      expect({ name: err.name, code: err.code, kind: err.kind }).toEqual({ name, code, kind });
      expect((err as unknown as { exitCode?: unknown }).exitCode, `${name} carries no exit code`).toBeUndefined();
    }
  });

  it("instanceof holds for a copy of the class from another bundle, and only for its own chain", () => {
    const copy = foreignCopy(["LockTimeoutError", "NomaError"]);
    expect(copy instanceof LockTimeoutError).toBe(true);
    expect(copy instanceof NomaError).toBe(true);
    expect(copy instanceof GitError).toBe(false);
    expect(copy instanceof UsageError).toBe(false);
    expect(new Error("plain") instanceof NomaError).toBe(false);
    expect(Object.assign(new Error("named alike"), { name: "LockTimeoutError" }) instanceof LockTimeoutError).toBe(false);
    // And the shells classify it by what it is.
    expect(classifyError(copy)).toEqual({ kind: "expected", code: "lock-timeout", message: "from another bundle" });
  });

  it("classifies system errors as expected (naming the path), cac's as usage, anything else as internal", () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write", path: "/r/x" });
    expect(classifyError(enospc)).toEqual({ kind: "expected", code: "ENOSPC", message: "ENOSPC: no space left on device, write (/r/x)" });
    expect(classifyError(Object.assign(new Error("Unknown option `--x`"), { name: "CACError" }))).toMatchObject({ kind: "usage" });
    expect(classifyError(new TypeError("x is undefined"))).toEqual({ kind: "internal", code: "internal", message: "x is undefined" });
    expect(classifyError(Object.assign(new Error("bad arg"), { code: "ERR_INVALID_ARG_TYPE" }))).toMatchObject({ kind: "internal" });
  });
});
