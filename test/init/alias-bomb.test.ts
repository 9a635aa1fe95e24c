/**
 * A hook manager's file holding a YAML alias bomb (issue 33.2: ten levels of ten aliases,
 * 611 bytes, hung `init` — its copy of the file was expanded without a bound): `init --hooks`
 * leaves the file alone, exit 2, the entry printed to paste; without --hooks, the advice says
 * why it cannot add it. Each run bounded by a kill timeout (a hang shows as a signal).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VALID } from "../check/staged/fixtures.js";
import { CLI } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

/** Ten anchors, each a list of ten aliases of the one before: 10^10 values once expanded. */
function bomb(tail: string): string {
  const lines = ["a0: &a0 [x]"];
  for (let k = 1; k < 10; k++)
    lines.push(
      `a${k}: &a${k} [${Array(10)
        .fill(`*a${k - 1}`)
        .join(",")}]`,
    );
  return `${lines.join("\n")}\n${tail}`;
}

function cli(args: string[], cwd: string): { code: number | null; signal: string | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

const REASON = 'its YAML aliases expand too far (more than 1000 alias resolutions: a "billion laughs" file?)';

describe("init and a YAML alias bomb in a hook manager's file", () => {
  it(".pre-commit-config.yaml: refused, left byte for byte, the entry printed (exit 2)", () => {
    const text = bomb("repos:\n- repo: local\n  hooks: []\n");
    expect(text.length).toBeLessThan(700);
    const repo = tempRepo({ ".pre-commit-config.yaml": text, "a.noma": VALID });
    const r = cli(["init", "--hooks"], repo);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(
      `refused   .pre-commit-config.yaml  (the pre-commit framework: .pre-commit-config.yaml left untouched: ${REASON}; add this entry`,
    );
    expect(r.stdout).toContain("- id: noma-reconcile");
    expect(readFileSync(join(repo, ".pre-commit-config.yaml"), "utf8")).toBe(text);

    const advice = cli(["init"], repo);
    expect(advice.signal).toBeNull();
    expect(advice.code).toBe(0);
    expect(advice.stdout).toContain(`(init --hooks cannot add it: ${REASON})`);
  });

  it("lefthook.yml: refused the same way", () => {
    const text = bomb("pre-commit:\n  commands: {}\n");
    const repo = tempRepo({ "lefthook.yml": text, "a.noma": VALID });
    const r = cli(["init", "--hooks"], repo);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`lefthook.yml left untouched: ${REASON}; add this entry`);
    expect(readFileSync(join(repo, "lefthook.yml"), "utf8")).toBe(text);
  });
});

describe("the other YAML readers bound aliases too (audit)", () => {
  it("a book manifest, a frontmatter and a dataset body holding the bomb: check answers", () => {
    const b = bomb("");
    const repo = tempRepo({
      "book.noma.yml": `${b}chapters: [c.noma]\n`,
      "c.noma": "# C\n\nx\n",
      "fm.noma": `---\n${b}title: t\n---\n# D\n\nx\n`,
      "ds.noma": `# D\n\n::dataset{id="ds1" format="yaml"}\n${b}::\n`,
    });
    const r = cli(["check", "book.noma.yml", "fm.noma", "ds.noma"], repo);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "ERROR [book-manifest-invalid] book.noma.yml: Book manifest is not valid YAML: Excessive alias count indicates a resource exhaustion attack",
    );
    expect(r.stdout).toContain(
      "ERROR [invalid-frontmatter] fm.noma:2:1: Frontmatter is not valid YAML: Excessive alias count indicates a resource exhaustion attack",
    );
    expect(r.stderr).toBe("3 files checked: 2 errors, 0 warnings.\n");
  });
});
