// Parse and parse+validate of a generated ~5 MB .noma document, with the floor measured
// in the same run: reading the file and splitting it into lines. Also: linear scaling
// (1 MB vs 5 MB) and the adversarial inputs that hang or slow other parsers.
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseNoma, readTextFile, validateNoma } from "../dist/internal.js";
import { generateDocument } from "./lib/gen-document.mjs";
import { fmt, GUIDE_NODE_MS, nodeFloor, ratio, report, time, timeCommand, timePaired } from "./lib/measure.mjs";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "../dist/cli.cjs");

// The reference's figures (140 ms parse, 215 ms parse + validate) were measured where
// `node -e 0` takes ≈90 ms. Each timed run here follows one `node -e 0`, and the ratio to the
// reference is taken pair by pair (timePaired): this machine's speed drifts within a minute.
const REFERENCE_PARSE_MS = 140;
const REFERENCE_PARSE_VALIDATE_MS = 215;

const dir = mkdtempSync(join(tmpdir(), "nr-bench-parse-"));
try {
  const { text, sections } = generateDocument(5 * 1024 * 1024);
  const file = join(dir, "big.noma");
  writeFileSync(file, text);
  const mb = Buffer.byteLength(text) / (1024 * 1024);

  // Steady state: the optimizing compiler needs several runs over a 5 MB document before the
  // parser's and the validator's code is fully optimized, so each figure warms up first.
  const WARMUP = 8;
  // The floor: reading the file (as `check` reads it) and splitting it into lines.
  const floor = time(() => readTextFile(file).split("\n").length, { runs: 9, warmup: WARMUP });
  const readOnly = time(() => readTextFile(file).length, { runs: 9, warmup: WARMUP });
  const readUtf8 = time(() => readFileSync(file, "utf8").length, { runs: 9, warmup: WARMUP });
  // The reference's figures are for parsing and validating a document's text; ours too, and
  // then with reading the file included (what `check` does per file).
  const parse = timePaired(() => parseNoma(text), { runs: 9, warmup: WARMUP });
  const inMemory = timePaired(() => validateNoma(parseNoma(text)), { runs: 9, warmup: WARMUP });
  const full = timePaired(() => validateNoma(parseNoma(readTextFile(file))), { runs: 9, warmup: WARMUP });
  // What one `noma-reconcile check` process pays: start-up, cold (unoptimized) code, the report.
  const cli = timeCommand(process.execPath, [CLI, "check", file], { runs: 5, warmup: 1 });
  const nodeStart = nodeFloor(5);
  const doc = parseNoma(text);
  const diags = validateNoma(doc);
  const vsReference = (m, ref) => `${m.speedup(ref).toFixed(1)}× faster than ${ref} ms (node -e 0: ${fmt(m.nodeMs)})`;

  console.log(
    `reference (node -e 0 = ${GUIDE_NODE_MS} ms): parse ${REFERENCE_PARSE_MS} ms, parse + validate ${REFERENCE_PARSE_VALIDATE_MS} ms; target: parse + validate ≥ 3× faster\n`,
  );
  report(`document: ${mb.toFixed(2)} MB, ${doc.lines.length} lines, ${sections} sections, ${doc.ids.length} ids, ${diags.length} diagnostics`, [
    ["figure", "time", "MB/s", "floor (read + split lines)", "× floor", "vs reference, scaled pair by pair"],
    ["parse", fmt(parse.ms), (mb / (parse.ms / 1000)).toFixed(0), fmt(floor), ratio(parse.ms, floor), vsReference(parse, REFERENCE_PARSE_MS)],
    [
      "parse + validate",
      fmt(inMemory.ms),
      (mb / (inMemory.ms / 1000)).toFixed(0),
      fmt(floor),
      ratio(inMemory.ms, floor),
      `${vsReference(inMemory, REFERENCE_PARSE_VALIDATE_MS)} ← target`,
    ],
    [
      "read + parse + validate",
      fmt(full.ms),
      (mb / (full.ms / 1000)).toFixed(0),
      fmt(floor),
      ratio(full.ms, floor),
      `${vsReference(full, REFERENCE_PARSE_VALIDATE_MS)}, reading included`,
    ],
  ]);
  console.log(
    `(steady state: median of 9 runs after ${WARMUP} warm-up runs; the first run in a process is slower, see below. Reading the file alone: ${fmt(readOnly)}, against ${fmt(readUtf8)} for readFileSync(file, "utf8").)`,
  );
  console.log(
    `\nnoma-reconcile check on the same file, one process (start-up and unoptimized code included): ${fmt(cli)}; node -e 0: ${fmt(nodeStart)}; the difference: ${fmt(cli - nodeStart)}`,
  );

  const small = generateDocument(1024 * 1024).text;
  const tSmall = time(() => validateNoma(parseNoma(small)), { runs: 9 });
  const tBig = time(() => validateNoma(parseNoma(text)), { runs: 9 });
  console.log(
    `\nscaling: 1 MB ${fmt(tSmall)}, 5 MB ${fmt(tBig)} → ${(tBig / tSmall).toFixed(2)}× for ${(Buffer.byteLength(text) / Buffer.byteLength(small)).toFixed(2)}× the bytes (linear ≈ 5×)`,
  );

  const families = [
    ["pipe table, header/separator mismatch", (n) => `| a | b |\n|---|---|---|\n${"| 1 | 2 |\n".repeat(n)}`],
    ["unclosed directive openers", (n) => "::a\n".repeat(n)],
    ["unclosed code fences", (n) => "```\n::a\n".repeat(n)],
    ["identical headings (suffixing)", (n) => "# Same\n".repeat(n)],
    ["one line of braces", (n) => `# ${"{".repeat(n * 8)}`],
    ["unclosed wikilinks on one line", (n) => "[[a ".repeat(n * 2)],
    ["unclosed wikilink labels on one line", (n) => "[[a|b ".repeat(n * 2)],
    ["wikilinks on many lines, one backtick at the end", (n) => `${"[[a]] b\n".repeat(n)}\``],
  ];
  const rows = [["adversarial input", "n", "time", "4n", "time", "ratio (linear ≈ 4×)"]];
  for (const [name, make] of families) {
    const a = make(50_000);
    const b = make(200_000);
    const ta = time(() => validateNoma(parseNoma(a)), { runs: 3, warmup: 1 });
    const tb = time(() => validateNoma(parseNoma(b)), { runs: 3, warmup: 1 });
    rows.push([name, `${(a.length / 1e6).toFixed(1)} MB`, fmt(ta), `${(b.length / 1e6).toFixed(1)} MB`, fmt(tb), `${(tb / ta).toFixed(2)}×`]);
  }
  console.log("");
  report("linear time on adversarial inputs", rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
