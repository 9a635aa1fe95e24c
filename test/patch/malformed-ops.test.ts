/**
 * Every transcript record we write passes our own verifier, whatever a caller
 * sends as an op. A value that is not a patch op at all (not an object, no
 * string `op`, nested absurdly deep) is refused before anything is recorded:
 * `patch` exits 2, MCP `patch_block` answers isError, the library throws
 * MalformedOpError — each naming what was expected and what was found. Objects
 * with a string `op` are attempted and recorded (unsupported_op,
 * invalid_content), `__proto__` and `constructor` keys included, in a shape
 * `transcript verify` accepts.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { patchInProcess } from "../helpers/patch-in-process.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient, expectProtocolOnly } from "../mcp/helpers/mcp-client.js";
import { patchDocument } from "../../src/editing/patch-document.js";
import { MalformedOpError } from "../../src/patch/assert-recordable-ops.js";
import { verifyTranscript } from "../../src/transcript/verify-transcript.js";

const DOC = '::claim{id="c1" confidence=0.5}\nBody.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
const ACTOR = { kind: "tool" as const, name: "test" };

/** JSON text of a value nested `depth` levels deep (arrays or objects). */
function deepJson(depth: number, kind: "array" | "object"): string {
  return kind === "array" ? `${"[".repeat(depth)}1${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

const NOT_OPS: Array<[string, string]> = [
  ["null", "null"],
  ['"a string"', 'string "a string"'],
  ["42", "number 42"],
  ["true", "boolean true"],
  ["{}", 'an object without an "op" field'],
  ['{"op":5}', '"op" is number 5'],
  ['{"op":null,"id":"c1"}', '"op" is null'],
  ['{"__proto__":{"op":"delete_block"},"id":"c1"}', 'an object without an "op" field'],
  ["[[]]", "an array"],
];

function verifies(repo: string, file = "d.noma"): void {
  const t = join(repo, `${file}.patches`);
  if (!existsSync(t)) return;
  const report = verifyTranscript(readFileSync(t, "utf8"), readFileSync(join(repo, file), "utf8"), { strict: true });
  expect(
    report.findings.filter((f) => f.severity === "error"),
    readFileSync(t, "utf8").slice(0, 2000),
  ).toEqual([]);
}

describe("patch (CLI) with values that are not patch ops", () => {
  it.each(NOT_OPS)("%s: exit 2, invalid_content naming what was expected and found, nothing recorded", (op, found) => {
    const repo = tempRepo({ "d.noma": DOC });
    const r = runCli(["patch", "d.noma", "--op", op], { cwd: repo });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("invalid_content");
    expect(r.stderr).toContain("expected a patch op");
    expect(r.stderr).toContain(found);
    expect(r.stderr).not.toMatch(/internal error|at .*\.js/);
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(DOC);
  });

  it("one bad op in a list refuses the whole list (atomic), naming its position", () => {
    const repo = tempRepo({ "d.noma": DOC });
    const r = runCli(["patch", "d.noma", "--op", '[{"op":"delete_block","id":"e1"},null]'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/op 2 of 2/);
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
  });

  it("objects with a string op are attempted and recorded; __proto__ and constructor keys round-trip and verify (a field the op does not take is refused, naming it)", () => {
    const repo = tempRepo({ "d.noma": DOC });
    const ops = [
      ['{"op":"replace_block","id":"c1","content":"x","__proto__":{"a":1}}', 1],
      ['{"op":"update_attribute","id":"c1","key":"x","value":1,"constructor":{"prototype":{"polluted":true}}}', 1],
      ['{"op":"add_block","parent":"c1","content":"::note{id=\\"n1\\"}\\nx\\n::","__proto__":{"position":99}}', 1],
      ['{"op":"frobnicate","id":"c1"}', 1],
      ['{"op":"delete_block"}', 1],
    ] as const;
    for (const [op, code] of ops) {
      const r = runCli(["patch", "d.noma", "--op", op], { cwd: repo });
      expect(r.code, `${op}\n${r.stdout}${r.stderr}`).toBe(code);
    }
    const lines = readFileSync(join(repo, "d.noma.patches"), "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(ops.length);
    // The op is recorded verbatim, own "__proto__" key included.
    expect(Object.keys(JSON.parse(lines[0]!).op)).toContain("__proto__");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    const v = runCli(["transcript", "verify", "d.noma", "--strict"], { cwd: repo });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  it("a 10,000-deep JSON op is a clean invalid_content (exit 2) from --op, --ops FILE and stdin; nothing recorded", () => {
    const repo = tempRepo({ "d.noma": DOC });
    const deepValue = `{"op":"update_attribute","id":"c1","key":"x","value":${deepJson(10_000, "object")}}`;
    const deepExtra = `{"op":"update_attribute","id":"c1","key":"x","value":1,"extra":${deepJson(10_000, "array")}}`;
    writeFileSync(join(repo, "deep.json"), `[${deepExtra}]`);
    const runs = [
      runCli(["patch", "d.noma", "--op", deepValue], { cwd: repo }),
      runCli(["patch", "d.noma", "--ops", "deep.json"], { cwd: repo }),
      runCli(["patch", "d.noma", "--ops", "-"], { cwd: repo, input: deepExtra }),
    ];
    for (const r of runs) {
      expect(r.code, r.stderr.slice(0, 500)).toBe(2);
      expect(r.stderr).toMatch(/invalid_content: .*nested deeper than \d+ levels/);
      expect(r.stderr).not.toMatch(/internal error|Maximum call stack/);
    }
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
  });
});

describe("transcript verify on a hostile transcript", () => {
  it("a record nested 10,000 deep is a finding, not a crash", () => {
    const repo = tempRepo({ "d.noma": DOC });
    // A first record, written in process (what `patch d.noma --op …` writes).
    patchInProcess(repo, "d.noma", { op: "delete_block", id: "e1" });
    // A complete record (so the seal is computed) whose op carries a 10,000-deep value.
    const line = readFileSync(join(repo, "d.noma.patches"), "utf8");
    writeFileSync(join(repo, "d.noma.patches"), line.replace('"op":{', `"op":{"x":${deepJson(10_000, "array")},`));
    const r = runCli(["transcript", "verify", "d.noma"], { cwd: repo });
    expect(r.code, r.stderr.slice(0, 500)).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/transcript-invalid-record/);
    expect(r.stderr).not.toMatch(/internal error|Maximum call stack/);
  });
});

describe("patchDocument (library): whatever we write verifies", () => {
  /** Junk ops: any JSON value, objects with a string op (known or not), special keys, deep nesting. */
  const junk = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc
      .record(
        {
          op: fc.oneof(
            fc.constantFrom("replace_block", "delete_block", "update_attribute", "add_block", "rename_id", "update_table_cell", "move_block"),
            fc.string(),
          ),
        },
        { requiredKeys: ["op"] },
      )
      .chain((base) =>
        fc
          .dictionary(
            fc.oneof(
              fc.constantFrom(
                "id",
                "key",
                "value",
                "content",
                "parent",
                "from",
                "to",
                "row",
                "column",
                "cells",
                "position",
                "baseHash",
                "__proto__",
                "constructor",
                "toString",
              ),
              fc.string({ maxLength: 6 }),
            ),
            fc.jsonValue({ maxDepth: 3 }),
            { maxKeys: 5 },
          )
          .map((extra) => ({ base, extra })),
      )
      .map(
        ({ base, extra }) =>
          JSON.parse(
            `{${[`"op":${JSON.stringify(base.op)}`, ...Object.entries(extra).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)].join(",")}}`,
          ) as unknown,
      ),
    fc.integer({ min: 1, max: 3000 }).map((d) => JSON.parse(`{"op":"delete_block","id":"e1","x":${deepJson(d, "array")}}`) as unknown),
  );

  it("random junk op lists: refused before recording, or recorded in a shape transcript verify --strict accepts", () => {
    const repo = tempRepo({ "d.noma": DOC });
    const abs = join(repo, "d.noma");
    let refused = 0;
    let recorded = 0;
    fc.assert(
      fc.property(fc.array(junk, { minLength: 1, maxLength: 3 }), (ops) => {
        const before = existsSync(`${abs}.patches`) ? readFileSync(`${abs}.patches`, "utf8") : "";
        try {
          patchDocument(abs, ops, { actor: ACTOR, reuse: false });
          recorded++;
        } catch (e) {
          expect(e).toBeInstanceOf(MalformedOpError);
          expect((e as MalformedOpError).code).toBe("invalid_content");
          expect((e as Error).message).toMatch(/expected a patch op/);
          expect(existsSync(`${abs}.patches`) ? readFileSync(`${abs}.patches`, "utf8") : "").toBe(before);
          refused++;
        }
        verifies(repo);
      }),
      { numRuns: 150 },
    );
    expect(refused).toBeGreaterThan(0);
    expect(recorded).toBeGreaterThan(0);
  });
});

describe("MCP patch_block", () => {
  it("advertises op and ops items as type object", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const list = (await c.request("tools/list", {})).result as {
      tools: Array<{ name: string; inputSchema: { properties: Record<string, Record<string, unknown>> } }>;
    };
    const input = list.tools.find((t) => t.name === "patch_block")!.inputSchema;
    expect(input.properties["op"]!["type"]).toBe("object");
    expect((input.properties["ops"]!["items"] as Record<string, unknown>)["type"]).toBe("object");
    await c.close();
  });

  it("a JSON string that parses to an op is accepted (clients that saw no type send strings); ops too", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const one = await c.ok<{ ok: boolean; transcript_entry: { op: unknown } }>("patch_block", {
      file: "d.noma",
      op: JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value: 0.9 }),
    });
    expect(one.ok).toBe(true);
    expect(one.transcript_entry.op).toEqual({ op: "update_attribute", id: "c1", key: "confidence", value: 0.9 });
    const list = await c.ok<{ ok: boolean }>("patch_block", {
      file: "d.noma",
      ops: [JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value: 0.8 })],
    });
    expect(list.ok).toBe(true);
    const whole = await c.ok<{ ok: boolean }>("patch_block", {
      file: "d.noma",
      ops: JSON.stringify([{ op: "update_attribute", id: "c1", key: "confidence", value: 0.7 }]),
    });
    expect(whole.ok).toBe(true);
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toContain("confidence=0.7");
    verifies(repo);
    await c.close();
  });

  it("values that are not ops are isError invalid_content naming expected and found; nothing recorded; no internal error", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const cases: Array<[unknown, RegExp]> = [
      [null, /found null/],
      ["not json at all", /found string "not json at all"/],
      ['"a JSON string"', /found string/],
      [42, /found number 42/],
      [{}, /without an "op" field/],
      [[{ op: "delete_block", id: "e1" }], /found an array/],
    ];
    for (const [op, found] of cases) {
      const msg = await c.fails("patch_block", { file: "d.noma", op });
      expect(msg).toMatch(/invalid_content/);
      expect(msg).toMatch(/expected a patch op/);
      expect(msg).toMatch(found);
      expect(msg).not.toMatch(/internal error/);
    }
    expect(await c.fails("patch_block", { file: "d.noma", ops: [{ op: "delete_block", id: "e1" }, 7] })).toMatch(/op 2 of 2.*found number 7/);
    // 10,000 levels deep (written by hand: JSON.stringify itself would overflow the stack).
    const reply = c.waitFor("deep");
    c.write(
      `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"patch_block","arguments":{"file":"d.noma","op":{"op":"update_attribute","id":"c1","key":"x","value":${deepJson(10_000, "object")}}}}}\n`,
    );
    const deep = (await reply).result as { isError?: boolean; content: Array<{ text: string }> };
    expect(deep.isError).toBe(true);
    expect(deep.content[0]!.text).toMatch(/invalid_content: .*nested deeper than \d+ levels/);
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
    // Recorded rejections still verify.
    expect((await c.ok<{ ok: boolean; code: string }>("patch_block", { file: "d.noma", op: { op: "explode", id: "c1" } })).code).toBe("unsupported_op");
    verifies(repo);
    const closed = await c.close();
    expect(closed.stderr).not.toMatch(/internal error|Maximum call stack/);
    expectProtocolOnly(closed.lines);
  });
});
