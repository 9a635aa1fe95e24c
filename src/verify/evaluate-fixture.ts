/**
 * One conformance fixture (Annex C.3), evaluated from its files' contents.
 * Pure: the caller reads the directory and supplies the patch engine.
 *
 * Checks, in order, every expected file present: ids, diagnostics, roundtrip
 * (bytes, then re-parse structure), spans, patch → post bytes, patch → error code.
 *
 * Two optional files extend Annex C.3 for our own corpus (other harnesses
 * ignore them): `patch.options.json` ({strict, expected_sha, base_sha256},
 * list-level policies) and `expected.outcomes.json` (the per-op results,
 * e.g. op_list_aborted for ops rolled back by a later failure).
 */
import { isDeepStrictEqual } from "node:util";
import { parseNoma } from "../noma/parse-noma.js";
import { renderNoma } from "../noma/render-noma.js";
import { documentStructure } from "../noma/structure.js";
import { idSummary, walkBlocks } from "../noma/walk.js";
import { validateNoma } from "../validate/validate-noma.js";

/** Per-op results of an op list, as a transcript would record them. */
export type FixtureOpOutcome = { patch_result: "applied" | "rejected" | "noop"; code?: string };

/** Options a fixture may pass (our extension: `patch.options.json`). */
export interface FixturePatchOptions {
  strict?: boolean;
  expected_sha?: string;
  base_sha256?: string;
}

/** What the harness needs from a patch engine: apply ops to a text, or say which PatchError code rejected them. */
export type FixturePatchEngine = (
  input: string,
  ops: unknown[],
  options?: FixturePatchOptions,
) => ({ ok: true; output: string } | { ok: false; code: string; message: string }) & { outcomes?: FixtureOpOutcome[] };

export type FixtureOutcome = { ok: true } | { ok: false; reason: string };

export interface FixtureFiles {
  /** File name → UTF-8 contents, for the files present in the fixture directory. */
  get(name: string): string | undefined;
}

function fail(reason: string): FixtureOutcome {
  return { ok: false, reason };
}

function show(value: unknown): string {
  return JSON.stringify(value);
}

/** First line where two texts differ, for a readable failure. */
export function firstDifference(got: string, expected: string): string {
  const a = got.split("\n");
  const b = expected.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: got ${show(a[i] ?? "<end of file>")}, expected ${show(b[i] ?? "<end of file>")}`;
  }
  return "texts differ";
}

function parseJson(files: FixtureFiles, name: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(files.get(name)!) as unknown };
  } catch (e) {
    return { ok: false, reason: `${name} is not valid JSON: ${(e as Error).message}` };
  }
}

function sortedAliases(map: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of Object.keys(map).sort()) {
    const list = map[key];
    if (!Array.isArray(list) || list.length === 0) continue;
    out[key] = list.map(String).sort();
  }
  return out;
}

export function evaluateFixture(files: FixtureFiles, engine?: FixturePatchEngine): FixtureOutcome {
  const input = files.get("input.noma");
  if (input === undefined) return fail("input.noma is missing");
  const doc = parseNoma(input);

  if (files.get("expected.ids.json") !== undefined) {
    const parsed = parseJson(files, "expected.ids.json");
    if (!parsed.ok) return fail(parsed.reason);
    const expected = parsed.value as { canonical?: unknown; aliases?: unknown };
    const got = idSummary(doc);
    const gotIds = [...got.canonical].sort();
    const wantIds = Array.isArray(expected.canonical) ? expected.canonical.map(String).sort() : [];
    if (!isDeepStrictEqual(gotIds, wantIds)) return fail(`ids mismatch: got ${show(gotIds)}, expected ${show(wantIds)}`);
    const wantAliases = sortedAliases((expected.aliases ?? {}) as Record<string, unknown>);
    const gotAliases = sortedAliases(got.aliases);
    if (!isDeepStrictEqual(gotAliases, wantAliases)) return fail(`alias map mismatch: got ${show(gotAliases)}, expected ${show(wantAliases)}`);
  }

  if (files.get("expected.diagnostics.json") !== undefined) {
    const parsed = parseJson(files, "expected.diagnostics.json");
    if (!parsed.ok) return fail(parsed.reason);
    if (!Array.isArray(parsed.value)) return fail("expected.diagnostics.json is not an array");
    const key = (d: { code?: unknown; severity?: unknown }): string => `${String(d.severity)} ${String(d.code)}`;
    const want = (parsed.value as Array<{ code?: unknown; severity?: unknown }>).map(key).sort();
    const got = validateNoma(doc).map(key).sort();
    if (!isDeepStrictEqual(got, want)) return fail(`diagnostics mismatch: got ${show(got)}, expected ${show(want)}`);
  }

  const roundtrip = files.get("expected.roundtrip.noma");
  if (roundtrip !== undefined) {
    const rendered = renderNoma(doc);
    if (rendered !== roundtrip) return fail(`roundtrip mismatch at ${firstDifference(rendered, roundtrip)}`);
    const again = documentStructure(parseNoma(rendered));
    if (!isDeepStrictEqual(again, documentStructure(doc)))
      return fail("roundtrip AST differs: parse(render(parse(input))) is not structurally equal to parse(input)");
  }

  if (files.get("expected.spans.json") !== undefined) {
    const parsed = parseJson(files, "expected.spans.json");
    if (!parsed.ok) return fail(parsed.reason);
    const want = parsed.value as Record<string, { startLine?: unknown; endLine?: unknown }>;
    const spans = new Map<string, [number, number]>();
    walkBlocks(doc, (n) => {
      if ((n.type === "section" || n.type === "directive") && n.id !== undefined && !spans.has(n.id)) spans.set(n.id, [n.pos.line, n.endLine]);
    });
    for (const id of Object.keys(want).sort()) {
      const got = spans.get(id);
      const exp = [Number(want[id]!.startLine), Number(want[id]!.endLine)];
      if (got === undefined) return fail(`span mismatch for ${show(id)}: no node has this id, expected [${exp[0]}, ${exp[1]}]`);
      if (got[0] !== exp[0] || got[1] !== exp[1]) return fail(`span mismatch for ${show(id)}: got [${got[0]}, ${got[1]}], expected [${exp[0]}, ${exp[1]}]`);
    }
  }

  const patch = files.get("patch.json");
  const post = files.get("expected.post.noma");
  const error = files.get("expected.error.json");
  if (patch !== undefined) {
    if (post === undefined && error === undefined) return fail("patch.json needs expected.post.noma or expected.error.json");
    if (post !== undefined && error !== undefined) return fail("a fixture must not declare both expected.post.noma and expected.error.json");
    if (engine === undefined) return fail("no patch engine is available to apply patch.json");
    const parsed = parseJson(files, "patch.json");
    if (!parsed.ok) return fail(parsed.reason);
    const ops = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
    let options: FixturePatchOptions | undefined;
    if (files.get("patch.options.json") !== undefined) {
      const o = parseJson(files, "patch.options.json");
      if (!o.ok) return fail(o.reason);
      options = o.value as FixturePatchOptions;
    }
    let result: ReturnType<FixturePatchEngine>;
    try {
      result = engine(input, ops, options);
    } catch (e) {
      return fail(`the patch engine threw instead of rejecting with a PatchError: ${(e as Error).message}`);
    }
    if (post !== undefined) {
      if (!result.ok) return fail(`patch rejected with ${result.code}: ${result.message}`);
      if (result.output !== post) return fail(`post-patch mismatch at ${firstDifference(result.output, post)}`);
    } else {
      const want = parseJson(files, "expected.error.json");
      if (!want.ok) return fail(want.reason);
      const code = String((want.value as { code?: unknown }).code);
      if (result.ok) return fail(`expected rejection with ${code}, but the patch applied`);
      if (result.code !== code) return fail(`expected rejection with ${code}, got ${result.code}: ${result.message}`);
    }
    if (files.get("expected.outcomes.json") !== undefined) {
      const want = parseJson(files, "expected.outcomes.json");
      if (!want.ok) return fail(want.reason);
      const got = result.outcomes ?? [];
      if (!isDeepStrictEqual(got, want.value)) return fail(`per-op outcomes mismatch: got ${show(got)}, expected ${show(want.value)}`);
    }
  } else if (post !== undefined || error !== undefined) {
    return fail("expected.post.noma / expected.error.json present without patch.json");
  }
  return { ok: true };
}
