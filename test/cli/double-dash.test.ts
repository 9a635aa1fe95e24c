/**
 * Everything after `--` is an argument, never a flag, as with git (issue 33.8): a file whose
 * name starts with a dash is checked, marked, formatted and looked up, and a flag-like name
 * after `--` is a path, for every command taking paths. Through the real CLI.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";

const DUPLICATE = '# T\n\n::claim{id="a"}\nx\n::\n\n::claim{id="a"}\ny\n::\n';

function repo(): string {
  return tempRepo({
    ".notarai/s.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }),
    "docs/-rf.noma": DUPLICATE,
    "docs/ok.noma": "# T\n\nfine\n",
    "src/--all": "x\n",
    x: "y\n",
    "--format": "z\n",
  });
}

describe("arguments after --", () => {
  it("check -- docs/-rf.noma checks that file (not the whole repository)", () => {
    const r = runCli(["check", "--format", "json", "--", "docs/-rf.noma"], { cwd: repo() });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { summary: { files: number; errors: number }; result: { files: { file: string }[] } };
    expect(out.summary.files).toBe(1);
    expect(out.summary.errors).toBe(1);
    expect(out.result.files.map((f) => f.file)).toEqual(["docs/-rf.noma"]);
  });

  it("mark-reconciled -- src/--all marks that file; governs -- x and governs -- --format look those paths up", () => {
    const dir = repo();
    expect(runCli(["mark-reconciled", "--", "src/--all"], { cwd: dir })).toEqual({
      code: 0,
      stdout: "Marked 1 file as reconciled: 1 for .notarai/s.spec.yaml.\n",
      stderr: "",
    });
    expect(runCli(["governs", "--", "x"], { cwd: dir })).toEqual({ code: 1, stdout: "x: not governed (no spec's globs match)\n", stderr: "" });
    expect(runCli(["governs", "--", "src/--all", "--format"], { cwd: dir })).toEqual({
      code: 1,
      stdout: "src/--all: .notarai/s.spec.yaml (code, via src/**)\n--format: not governed (no spec's globs match)\n",
      stderr: "",
    });
  });

  it("fmt, specs validate, ids and render take a dash-named file after --", () => {
    const dir = repo();
    expect(runCli(["fmt", "--check", "--", "docs/-rf.noma"], { cwd: dir })).toEqual({ code: 0, stdout: "", stderr: "1 document checked: all formatted.\n" });
    expect(runCli(["specs", "validate", "--", ".notarai/s.spec.yaml"], { cwd: dir }).stderr).toBe("1 spec file checked: 0 invalid files, 0 problems.\n");
    const ids = runCli(["ids", "--format", "json", "--", "docs/-rf.noma"], { cwd: dir });
    expect(ids.code).toBe(0);
    expect(JSON.parse(ids.stdout).command).toBe("ids");
    expect(runCli(["render", "--", "docs/-rf.noma"], { cwd: dir }).stdout).toBe(DUPLICATE);
  });
});
