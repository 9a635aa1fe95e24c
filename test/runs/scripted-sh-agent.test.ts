/**
 * The run tests' sh agent (`scriptedShAgent`, helpers/run-repo.ts) does what the node agent (SCRIPTED_AGENT) does with
 * the same behaviour: the same files in the step directory (names and bytes), the same stdout, stderr and exit code,
 * for the step's role and iteration. Generated behaviours (fast-check): files in subdirectories, texts and JSON
 * values with quotes, backslashes, `$`, backquotes, line breaks and non-ASCII; `byRole` / `byIteration` arms; the
 * response's status, summary and file list, or a raw stdout.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { expect, it } from "vitest";
import { tempDir } from "../helpers/temp-repo.js";
import { SCRIPTED_AGENT, scriptedShAgent } from "./helpers/run-repo.js";

/** Every file under dir: relative path → content. */
function files(dir: string, rel = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) Object.assign(out, files(dir, r));
    else out[r] = readFileSync(join(dir, r), "utf8");
  }
  return out;
}

/** Run one agent as the loop runs an exec agent: the request on stdin, the NORMA_* variables, the repository as cwd. */
function runAgent(root: string, argv: string[], role: string, iteration: number) {
  const stepDir = tempDir("nr-step-");
  const request = { version: 1, run_id: "r", step: { role, index: 1, iteration }, paths: { repo_root: root, step_dir: stepDir, run_dir: root }, context: {} };
  const env = { PATH: process.env["PATH"]!, NORMA_ROLE: role, NORMA_ITERATION: String(iteration), NORMA_STEP_DIR: stepDir, NORMA_REPO_ROOT: root };
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd: root, env, input: JSON.stringify(request), encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, files: files(stepDir) };
}

const text = fc.string({ unit: fc.constantFrom("a", "Z", " ", "'", '"', "\\", "$", "`", "\n", "\t", "%", "-", "é", "→", "{", "}"), maxLength: 24 });
const name = fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}$/);
const path = fc.oneof(
  name,
  fc.tuple(name, name).map(([d, f]) => `${d}/${f}`),
);
const json = fc.jsonValue({ maxDepth: 2 });
const behaviour = fc.record(
  {
    files: fc.dictionary(path, fc.oneof(text, json), { maxKeys: 3 }),
    listed: fc.array(name, { maxLength: 2 }),
    status: fc.constantFrom("ok", "failed", "needs_input"),
    summary: text,
    stdout: text,
    stderr: text,
    exit: fc.integer({ min: 0, max: 3 }),
  },
  { requiredKeys: [] },
);
/** A file name and a directory of the same name in one behaviour cannot both be written (by either agent). */
const writable = (b: { files?: Record<string, unknown> }): boolean => {
  const names = Object.keys(b.files ?? {});
  return !names.some((n) => names.some((m) => m.startsWith(`${n}/`)));
};

it("the sh agent writes, prints and exits as the node agent does, for generated behaviours", () => {
  const root = tempDir("nr-agents-");
  writeFileSync(join(root, "scripted.mjs"), SCRIPTED_AGENT);
  mkdirSync(join(root, "agents"));
  let n = 0;
  fc.assert(
    fc.property(
      fc.record({
        top: behaviour,
        byRole: fc.option(fc.dictionary(fc.constantFrom("plan", "act"), behaviour, { maxKeys: 2 }), { nil: undefined }),
        byIteration: fc.option(fc.dictionary(fc.constantFrom("1", "2"), behaviour, { maxKeys: 2 }), { nil: undefined }),
      }),
      fc.constantFrom("plan", "do", "act"),
      fc.integer({ min: 1, max: 2 }),
      ({ top, byRole, byIteration }, role, iteration) => {
        const all = { ...top, ...(byRole !== undefined ? { byRole } : {}), ...(byIteration !== undefined ? { byIteration } : {}) };
        fc.pre([top, ...Object.values(byRole ?? {}), ...Object.values(byIteration ?? {})].every(writable));
        const id = n++;
        writeFileSync(join(root, `agents/${id}.json`), JSON.stringify(all));
        writeFileSync(join(root, `agents/${id}.sh`), scriptedShAgent(all));
        const node = runAgent(root, [process.execPath, "scripted.mjs", `agents/${id}.json`], role, iteration);
        const sh = runAgent(root, ["sh", `agents/${id}.sh`], role, iteration);
        expect(sh).toEqual(node);
      },
    ),
    { numRuns: 20 },
  );
});

it("refuses what only the node agent does (a pause, a gate, links, workspace edits)", () => {
  for (const b of [{ sleepMs: 10 }, { waitFor: "/x" }, { symlinks: { a: "b" } }, { workspace: { "a.txt": "a" } }, { byIteration: { "1": { sleepMs: 1 } } }])
    expect(() => scriptedShAgent(b)).toThrow(/not supported \(use execAgent, the node agent\)/);
});
