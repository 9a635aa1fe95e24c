// `transcript verify` in process (records, hash chain, state chain, document) of chains of
// 1,000, 10,000 and 100,000 records: linear means 10× the records cost 10× the time (issue 38:
// ≤ 10.5×). Each size is printed beside its floor measured in the same run (splitting the
// transcript into lines), in wall and CPU time (the machine is shared: CPU time is steadier).
//
// The chains are the records `patch` writes for one `update_attribute` per record on a small
// document (the record of a real patch, its op value, op_id and states changed per record),
// built without running the patch engine 100,000 times; the bench refuses a chain that does
// not verify clean.
import { createHash } from "node:crypto";
import { applyPatch, buildRecords, chainLines, verifyTranscript } from "../dist/internal.js";
import { fmt, ratio, report } from "./lib/measure.mjs";

const sha256 = (s) => createHash("sha256").update(s).digest("hex");
const docAt = (k) => `::claim{id="c" n=${k}}\nA claim.\n::\n`;
const op = (k) => ({ op: "update_attribute", id: "c", key: "n", value: k });

const outcome = applyPatch(docAt(0), [op(1)]);
if (outcome.text !== docAt(1)) throw new Error(`the patch engine wrote ${JSON.stringify(outcome.text)}, not the bench's document`);
const [template] = buildRecords(outcome, { docUri: "file:///bench.noma", actor: { kind: "agent", name: "bench" }, now: new Date(0) });

function chain(n) {
  const records = [];
  let pre = sha256(docAt(0));
  for (let k = 1; k <= n; k++) {
    const post = sha256(docAt(k));
    const id = k.toString(16).padStart(12, "0");
    records.push({
      ...template,
      op_id: `00000000-0000-4000-8000-${id}`,
      pre_sha256: pre,
      post_sha256: post,
      pre_sha: pre.slice(0, 8),
      post_sha: post.slice(0, 8),
      op: op(k),
    });
    pre = post;
  }
  const transcript = chainLines(records, null).join("");
  const doc = docAt(n);
  const r = verifyTranscript(transcript, doc);
  if (!r.ok || r.findings.length !== 0 || r.records !== n)
    throw new Error(`the ${n}-record chain does not verify clean: ${JSON.stringify(r.findings.slice(0, 3))}`);
  return { transcript, doc };
}

function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** Median wall and CPU time (ms) of `fn` over `runs` runs after `warmup` runs. */
function timeBoth(fn, { runs, warmup }) {
  for (let i = 0; i < warmup; i++) fn();
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    fn();
    wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const sizes = (process.env.NR_TRANSCRIPT_SIZES ?? "1000,10000,100000").split(",").map(Number);
const results = [];
for (const n of sizes) {
  const c = chain(n);
  // The same amount of work per size (≈ 100,000 records verified, at least 3 runs).
  const runs = Math.max(3, Math.min(21, Math.round(100000 / n)));
  const t = timeBoth(() => verifyTranscript(c.transcript, c.doc), { runs, warmup: 2 });
  const floor = timeBoth(() => c.transcript.split("\n").length, { runs, warmup: 2 });
  results.push({ n, bytes: c.transcript.length, ...t, floor });
}
const rows = [["records", "bytes", "wall", "CPU", "µs / record (CPU)", "floor (split lines)", "× floor (CPU)"]];
for (const r of results)
  rows.push([
    r.n.toLocaleString("en"),
    `${(r.bytes / 1e6).toFixed(2)} MB`,
    fmt(r.wall),
    fmt(r.cpu),
    ((r.cpu * 1000) / r.n).toFixed(1),
    fmt(r.floor.cpu),
    ratio(r.cpu, r.floor.cpu),
  ]);
report("transcript verify, in process", rows);
for (let i = 1; i < results.length; i++) {
  const a = results[i - 1];
  const b = results[i];
  const k = b.n / a.n;
  console.log(
    `scaling: ${k}× the records (${a.n.toLocaleString("en")} → ${b.n.toLocaleString("en")}) → ${ratio(b.wall, a.wall)} the wall time, ` +
      `${ratio(b.cpu, a.cpu)} the CPU time (linear ≈ ${k}×; target ≤ ${(k * 1.05).toFixed(1)}×)`,
  );
}
