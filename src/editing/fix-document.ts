/**
 * `check --fix` on one document on disk (the I/O edge of documentFixes): the fixes are found
 * and applied in memory, round after round (a fix can make another possible, and two fixes
 * of one block go in separate rounds: each op's baseHash is the block as the op finds it),
 * then written through the patch engine as one op list — under the document's lock, only if
 * the bytes are still the ones fixed (else `sha_mismatch`), atomically, with one transcript
 * record per op where the document has a transcript (none is started).
 */
import { existsSync, statSync } from "node:fs";
import { readRegularFile } from "../fsx/read-regular-file.js";
import { nonTextError } from "../fsx/utf8-text.js";
import { parseNoma } from "../noma/parse-noma.js";
import { sha256Hex } from "../patch/sha256-hex.js";
import { isSymlink } from "../fsx/symlink-escape.js";
import type { ValidateOptions } from "../validate/validate-noma.js";
import { validateNoma } from "../validate/validate-noma.js";
import { TOOL_VERSION } from "../version.js";
import { applyOpsInMemory, documentFixes, type Fix } from "./document-fixes.js";
import { DocumentMissingError, patchDocument } from "./patch-document.js";

export interface AppliedFix {
  code: string;
  /** Line of the diagnostic, in the state the fix was found in. */
  line?: number;
  description: string;
  ops: Record<string, unknown>[];
}

export interface FixDocumentOptions {
  /** Compute and report; write nothing. */
  dryRun?: boolean;
  /** The options the document is checked with (profile, ignored rules, its book). */
  validate?: ValidateOptions;
  root: string;
  lockTimeoutMs?: number;
  now?: Date;
}

export interface FixDocumentResult {
  fixes: AppliedFix[];
  before: string;
  after: string;
  /** The document was written. */
  written: boolean;
  /** Records were appended to its transcript. */
  recorded: boolean;
  /** Why nothing was fixed although something could be (not UTF-8, a link, changed meanwhile). */
  skipped?: string;
}

/** Who a fix record names. */
export const FIX_ACTOR = { kind: "tool" as const, name: "noma-reconcile check --fix", version: TOOL_VERSION };

const MAX_ROUNDS = 10;

/** The ids a fix's ops address. */
function targets(fix: Fix): string[] {
  return fix.ops.map((op) => String(op["id"]));
}

/** Every fix of `text`, applied in memory round after round. */
export function fixText(text: string, validate: ValidateOptions = {}): { text: string; fixes: AppliedFix[] } {
  const fixes: AppliedFix[] = [];
  let current = text;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const diagnostics = validateNoma(parseNoma(current), validate);
    const found = documentFixes(current, diagnostics, { validate });
    // Fixes of different blocks go together; a block's second fix waits for the next round.
    const used = new Set<string>();
    const chosen: AppliedFix[] = [];
    for (const [i, fix] of [...found].sort((a, b) => a[0] - b[0])) {
      const ids = targets(fix);
      if (ids.some((id) => used.has(id))) continue;
      for (const id of ids) used.add(id);
      const d = diagnostics[i]!;
      chosen.push({ code: d.code, ...(d.pos !== undefined ? { line: d.pos.line } : {}), description: fix.description, ops: fix.ops });
    }
    if (chosen.length === 0) break;
    let outcome = applyOpsInMemory(
      current,
      chosen.flatMap((f) => f.ops),
    );
    if (outcome === undefined) {
      // Each fix applied alone; together they should too. If not, one at a time.
      chosen.length = 1;
      outcome = applyOpsInMemory(current, chosen[0]!.ops);
      if (outcome === undefined) break;
    }
    current = outcome.text;
    fixes.push(...chosen);
  }
  return { text: current, fixes };
}

export function fixDocument(absPath: string, options: FixDocumentOptions): FixDocumentResult {
  if (!existsSync(absPath) || !statSync(absPath).isFile()) throw new DocumentMissingError(absPath);
  const none = (text: string, skipped?: string): FixDocumentResult => ({
    fixes: [],
    before: text,
    after: text,
    written: false,
    recorded: false,
    ...(skipped !== undefined ? { skipped } : {}),
  });
  if (isSymlink(absPath)) return none("", "it is a symbolic link; fix the file it points to");
  const bytes = readRegularFile(absPath, absPath); // never a blocking open (a FIFO is refused)
  const notText = nonTextError(bytes, absPath);
  if (notText !== null) return none("", `it is ${notText.reason}`);
  const before = bytes.toString("utf8");
  const { text: after, fixes } = fixText(before, options.validate);
  if (fixes.length === 0) return none(before);
  if (options.dryRun === true) return { fixes, before, after, written: false, recorded: false };
  const codes = [...new Set(fixes.map((f) => f.code))].join(", ");
  const result = patchDocument(
    absPath,
    fixes.flatMap((f) => f.ops),
    {
      actor: FIX_ACTOR,
      reason: `noma-reconcile check --fix: ${fixes.length} ${fixes.length === 1 ? "fix" : "fixes"} (${codes})`,
      expectedSha: sha256Hex(bytes),
      record: "if-present",
      reuse: false,
      root: options.root,
      ...(options.validate !== undefined ? { validate: options.validate } : {}),
      ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
    },
  );
  if (result.outcome.result !== "applied") {
    const why =
      result.outcome.error?.code === "sha_mismatch"
        ? "it changed while it was being fixed; run check --fix again"
        : (result.outcome.error?.message ?? "not applied");
    return { ...none(before, why), recorded: result.lines.length > 0 };
  }
  return { fixes, before, after: result.outcome.text, written: result.written, recorded: result.lines.length > 0 };
}
