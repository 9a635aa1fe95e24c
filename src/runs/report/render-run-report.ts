/**
 * Pure: a run's report (run-report-model.ts) → one self-contained HTML page, and the list of
 * runs → another. Sections: the summary, the timeline (an inline SVG of the steps over time,
 * and their table: role, iteration, status, duration), the acceptance criteria with each
 * check's judgement and the evidence, each act step's proposal (its diff, its Noma ops, the
 * files its agent changed), the tool calls of each step (its lines in the evidence ledger),
 * the drift before and after (and at every check), and the events.
 *
 * Self-contained and inert: inline CSS and SVG, no script, no font, image or link to fetch;
 * a Content-Security-Policy of `default-src 'none'` keeps it that way even if something got
 * through. Every value from the records is escaped where it is written (text and attribute
 * values alike), and every class name comes from a fixed list, so a hostile spec name, goal,
 * diff or ledger line shows as text and never becomes markup.
 */
import type { DriftSnapshot, ReportJudgement, ReportStep, RunReport, RunsIndex } from "./run-report-model.js";

/** The text as HTML text or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\u0000]/g, (c) => ESC[c]!);
}

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "\u0000": "\uFFFD" };

const e = escapeHtml;

/** A step index as the step directories write it (001). */
const pad = (v: number): string => num(v).padStart(3, "0");

/** A number as text (anything that is not a finite number: –). */
const num = (v: number): string => (typeof v === "number" && Number.isFinite(v) ? String(v) : "–");

/** A class name from a fixed list (anything else: `other`). */
function cls(value: string | null, known: readonly string[]): string {
  return value !== null && known.includes(value) ? value : "other";
}

const ROLES = ["plan", "do", "check", "act"] as const;
const STEP_STATUSES = ["ok", "fail", "skipped"] as const;
const RUN_STATUSES = ["running", "passed", "failed", "stopped"] as const;
const ROLE_COLOR: Record<string, string> = { plan: "#6366f1", do: "#0ea5e9", check: "#d97706", act: "#059669", other: "#6b7280" };

export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const CSS = [
  ``,
  `:root { color-scheme: light; --fg: #111827; --muted: #6b7280; --line: #e5e7eb; --pass: #047857; --fail: #b91c1c; --bg-soft: #f9fafb; }`,
  `* { box-sizing: border-box; }`,
  `body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }`,
  `main { max-width: 1100px; margin: 0 auto; padding: 24px; }`,
  `h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 18px; margin: 32px 0 12px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }`,
  `h3 { font-size: 15px; margin: 20px 0 8px; }`,
  `code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }`,
  `pre { background: var(--bg-soft); border: 1px solid var(--line); border-radius: 6px; padding: 10px; overflow-x: auto; white-space: pre-wrap; ` +
    `word-break: break-word; margin: 6px 0; }`,
  `table { border-collapse: collapse; width: 100%; margin: 8px 0; } th, td { text-align: left; vertical-align: top; padding: 4px 8px; ` +
    `border-bottom: 1px solid var(--line); }`,
  `th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }`,
  `nav { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0 0; font-size: 13px; } nav a { color: #1d4ed8; text-decoration: none; }`,
  `.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; background: #e5e7eb; }`,
  `.badge.passed, .badge.PASS, .badge.ok { background: #d1fae5; color: var(--pass); } .badge.failed, .badge.FAIL, .badge.fail { background: ` +
    `#fee2e2; color: var(--fail); }`,
  `.badge.stopped, .badge.skipped { background: #fef3c7; color: #92400e; } .badge.running { background: #dbeafe; color: #1e40af; }`,
  `.role { font-weight: 600; } .role.plan { color: ${ROLE_COLOR["plan"]}; } .role.do { color: ${ROLE_COLOR["do"]}; } .role.check { color: ` +
    `${ROLE_COLOR["check"]}; } .role.act { color: ${ROLE_COLOR["act"]}; }`,
  `.muted { color: var(--muted); } .pass { color: var(--pass); font-weight: 600; } .fail { color: var(--fail); font-weight: 600; }`,
  `dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; } dl.facts dt { color: var(--muted); } dl.facts ` +
    `dd { margin: 0; }`,
  `.diff .add { color: #065f46; background: #ecfdf5; display: block; } .diff .del { color: #991b1b; background: #fef2f2; display: block; }`,
  `.diff .hunk { color: #6d28d9; display: block; } .diff .meta { color: var(--muted); display: block; } .diff .ctx { display: block; }`,
  `article { border: 1px solid var(--line); border-radius: 8px; padding: 4px 14px 10px; margin: 12px 0; }`,
  `svg { display: block; max-width: 100%; height: auto; } svg text { font: 11px system-ui, sans-serif; fill: var(--fg); }`,
  `.empty { color: var(--muted); font-style: italic; }`,
  `footer { margin-top: 40px; color: var(--muted); font-size: 12px; }`,
  ``,
].join("\n");

function page(title: string, body: string, tool: { name: string; version: string }, generatedAt: string): string {
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${e(title)}</title>`,
    `<style>${CSS}</style>`,
    "</head>",
    "<body>",
    "<main>",
    body,
    `<footer>Written by ${e(tool.name)} ${e(tool.version)} at ${e(generatedAt)}. A self-contained page: nothing in it is fetched from anywhere.</footer>`,
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function badge(text: string, kind: string): string {
  return `<span class="badge ${kind}">${e(text)}</span>`;
}

function role(r: string): string {
  return `<span class="role ${cls(r, ROLES)}">${e(r)}</span>`;
}

function timelineSvg(steps: readonly ReportStep[]): string {
  if (steps.length === 0) return '<p class="empty">No steps yet.</p>';
  const W = 960;
  const LABEL = 150;
  const ROW = 22;
  const times = steps.map((s) => {
    const start = Date.parse(s.startedAt);
    const end = s.endedAt !== null ? Date.parse(s.endedAt) : Number.NaN;
    return { start, end: Number.isFinite(end) ? end : start };
  });
  const valid = times.every((t) => Number.isFinite(t.start));
  const t0 = valid ? Math.min(...times.map((t) => t.start)) : 0;
  const t1 = valid ? Math.max(...times.map((t) => t.end)) : 0;
  const span = t1 - t0;
  const usable = W - LABEL - 70;
  const bars = steps.map((s, i) => {
    let x: number;
    let w: number;
    if (valid && span > 0) {
      x = LABEL + ((times[i]!.start - t0) / span) * usable;
      w = Math.max(2, ((times[i]!.end - times[i]!.start) / span) * usable);
    } else {
      // No usable times: one slot per step, in order.
      w = usable / steps.length;
      x = LABEL + i * w;
    }
    const y = 8 + i * ROW;
    const colour = ROLE_COLOR[cls(s.role, ROLES)]!;
    const status = cls(s.status, STEP_STATUSES);
    const stroke = status === "fail" ? ' stroke="#b91c1c" stroke-width="2"' : "";
    const fill = status === "skipped" ? "#d1d5db" : colour;
    const label = `${pad(s.index)} ${s.role} · it. ${num(s.iteration)}`;
    return [
      `<text x="4" y="${y + 14}">${e(label)}</text>`,
      `<rect x="${x.toFixed(1)}" y="${y + 2}" width="${w.toFixed(1)}" height="${ROW - 6}" rx="3" fill="${fill}"${stroke}><title>` +
        `${e(`${label}: ${s.status}, ${formatDuration(s.durationMs)}`)}</title></rect>`,
      `<text x="${(x + w + 4).toFixed(1)}" y="${y + 14}" class="muted">${e(formatDuration(s.durationMs))}</text>`,
    ].join("");
  });
  const height = 16 + steps.length * ROW;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="Timeline of the ` +
    `run's steps">${bars.join("")}</svg>`
  );
}

function stepsTable(steps: readonly ReportStep[]): string {
  if (steps.length === 0) return "";
  const rows = steps.map(
    (s) =>
      `<tr><td><code>${e(pad(s.index))}</code></td><td>${role(s.role)}</td><td>${num(s.iteration)}</td><td>` +
      `${badge(s.status, cls(s.status, STEP_STATUSES))}` +
      `${s.verdict !== null ? ` ${badge(s.verdict.verdict, cls(s.verdict.verdict, ["PASS", "FAIL"]))}` : ""}</td><td>` +
      `${e(formatDuration(s.durationMs))}</td><td>${e(s.summary ?? "")}</td></tr>`,
  );
  return (
    `<table><thead><tr><th>Step</th><th>Role</th><th>Iteration</th><th>Status</th><th>Duration</th><th>Summary</th></tr></thead><tbody>` +
    `${rows.join("")}</tbody></table>`
  );
}

function evidenceBlock(j: ReportJudgement, step: ReportStep): string {
  if (j.evidence === "") return '<span class="muted">no evidence named</span>';
  const where = `${step.stepDir}/${j.evidence}`;
  if (j.excerpt === null) return `<code>${e(where)}</code>`;
  return `<details><summary><code>${e(where)}</code></summary><pre>${e(j.excerpt)}${j.excerptTruncated ? "\n…" : ""}</pre></details>`;
}

function criteriaSection(r: RunReport): string {
  const checks = r.steps.filter((s) => s.verdict !== null);
  const last = checks[checks.length - 1];
  const ids = [...new Set([...r.criteria.map((c) => c.id), ...checks.flatMap((s) => s.verdict!.criteria.map((c) => c.id))])];
  if (ids.length === 0) return '<p class="empty">No acceptance criteria recorded.</p>';
  const head =
    `<tr><th>Criterion</th>${checks.map((s) => `<th>Check ${e(pad(s.index))} (it. ${num(s.iteration)})</th>`).join("")}<th>Evidence (last ` +
    `check)</th></tr>`;
  const rows = ids.map((id) => {
    const text = r.criteria.find((c) => c.id === id)?.text ?? last?.verdict?.criteria.find((c) => c.id === id)?.text ?? "";
    const cells = checks.map((s) => {
      const j = s.verdict!.criteria.find((c) => c.id === id);
      return `<td>${j === undefined ? '<span class="muted">–</span>' : j.pass ? '<span class="pass">PASS</span>' : '<span class="fail">FAIL</span>'}</td>`;
    });
    const lastJ = last?.verdict?.criteria.find((c) => c.id === id);
    return (
      `<tr><td><strong>${e(id)}</strong> ${e(text)}</td>${cells.join("")}<td>` +
      `${lastJ !== undefined && last !== undefined ? evidenceBlock(lastJ, last) : '<span class="muted">not judged</span>'}</td></tr>`
    );
  });
  return `<table><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}

function diffBlock(diff: string): string {
  const lines = diff.replace(/\n$/, "").split("\n");
  const out = lines.map((l) => {
    const k =
      l.startsWith("+++") || l.startsWith("---") || l.startsWith("diff ") || l.startsWith("index ")
        ? "meta"
        : l.startsWith("@@")
          ? "hunk"
          : l.startsWith("+")
            ? "add"
            : l.startsWith("-")
              ? "del"
              : "ctx";
    return `<span class="${k}">${e(l)}</span>`;
  });
  return `<pre class="diff">${out.join("")}</pre>`;
}

function actSection(r: RunReport): string {
  const acts = r.steps.filter((s) => s.role === "act");
  if (acts.length === 0) return '<p class="empty">No act step ran.</p>';
  return acts
    .map((s) => {
      const parts = [
        `<article data-step="${num(s.index)}"><h3>Step ${e(pad(s.index))} ${role("act")} · iteration ${num(s.iteration)} ` +
          `${badge(s.status, cls(s.status, STEP_STATUSES))}</h3>`,
        s.summary !== null ? `<p>${e(s.summary)}</p>` : "",
      ];
      if (s.patch?.diff !== null && s.patch?.diff !== undefined) parts.push(`<h4>patch.diff</h4>${diffBlock(s.patch.diff)}`);
      if (s.patch?.noma !== null && s.patch?.noma !== undefined) parts.push(`<h4>patch.noma.json</h4><pre>${e(s.patch.noma)}</pre>`);
      if (s.patch?.truncated === true) parts.push('<p class="muted">Shortened: the full files are in the step directory.</p>');
      if (s.changedFiles.length > 0)
        parts.push(`<h4>Files the agent changed itself</h4><ul>${s.changedFiles.map((f) => `<li><code>${e(f)}</code></li>`).join("")}</ul>`);
      if ((s.patch === null || (s.patch.diff === null && s.patch.noma === null)) && s.changedFiles.length === 0)
        parts.push('<p class="empty">No patch and no change of its own.</p>');
      parts.push("</article>");
      return parts.join("");
    })
    .join("");
}

function toolsSection(r: RunReport): string {
  const withLines = r.steps.filter((s) => s.ledger.length > 0);
  if (withLines.length === 0)
    return `<p class="empty">No tool call of this run is in the evidence ledger${r.ledgerFile !== null ? ` (${e(r.ledgerFile)})` : ""}.</p>`;
  const intro = r.ledgerFile !== null ? `<p class="muted">From the evidence ledger <code>${e(r.ledgerFile)}</code>.</p>` : "";
  return (
    intro +
    withLines
      .map((s) => {
        const rows = s.ledger.map(
          (l) =>
            `<tr><td>${num(l.seq)}</td><td>${e(l.timestamp)}</td><td><code>${e(l.action)}</code>` +
            `${l.acp !== null && l.acp !== l.action ? ` <span class="muted">(${e(l.acp)})</span>` : ""}</td><td><code>${e(l.path)}</code></td><td>` +
            `${badge(l.outcome, cls(l.outcome, ["ok", "allowed", "intent"]) === "other" ? "fail" : "ok")}` +
            `${l.code !== null ? ` <code>${e(l.code)}</code>` : ""}</td><td>${e(l.via ?? "")}</td></tr>`,
        );
        // A call that changed something has two lines (its intent, its outcome): it is one call.
        const calls = s.ledger.filter((l) => l.outcome !== "intent").length;
        return (
          `<h3>Step ${e(pad(s.index))} ${role(s.role)} · ${num(calls)} call${calls === 1 ? "" : "s"}` +
          `</h3><table><thead><tr><th>Seq</th><th>Time</th><th>Action</th><th>Path</th><th>Outcome</th><th>Via</th></tr></thead><tbody>${rows.join("")}` +
          `</tbody></table>`
        );
      })
      .join("")
  );
}

function driftList(d: DriftSnapshot | null, label: string): string {
  if (d === null) return `<h3>${e(label)}</h3><p class="empty">No drift evidence recorded.</p>`;
  const body = d.specs
    .map((s) => {
      const open = s.files.filter((f) => !f.acknowledged);
      const items = s.files.map(
        (f) =>
          `<li><code>${e(f.path)}</code> ${f.acknowledged ? '<span class="pass">acknowledged</span>' : '<span class="fail">open</span>'}` +
          `${f.problem !== null ? ` <span class="muted">${e(f.problem)}</span>` : ""}</li>`,
      );
      return `<p><code>${e(s.spec)}</code>: ${open.length} open of ${s.files.length}</p>${items.length > 0 ? `<ul>${items.join("")}</ul>` : ""}`;
    })
    .join("");
  return `<h3>${e(label)} (check ${e(pad(d.step))}, iteration ${num(d.iteration)})</h3>${body || '<p class="empty">No spec.</p>'}`;
}

function driftSvg(series: RunReport["drift"]["series"]): string {
  if (series.length === 0) return "";
  const W = 480;
  const H = 120;
  const max = Math.max(1, ...series.map((p) => p.total));
  const step = series.length > 1 ? (W - 60) / (series.length - 1) : 0;
  const pts = series.map((p, i) => ({ x: 40 + i * step, y: H - 24 - (p.open / max) * (H - 44), p }));
  const line = pts.map((q) => `${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(" ");
  const dots = pts
    .map(
      (q) =>
        `<circle cx="${q.x.toFixed(1)}" cy="${q.y.toFixed(1)}" r="4" fill="${q.p.open === 0 ? "#047857" : "#b91c1c"}"><title>` +
        `${e(`check ${q.p.step}: ${num(q.p.open)} open of ${q.p.total}`)}</title></circle><text x="${(q.x - 4).toFixed(1)}" y="` +
        `${(q.y - 8).toFixed(1)}">${num(q.p.open)}</text><text x="${(q.x - 10).toFixed(1)}" y="${H - 6}" class="muted">it. ${q.p.iteration}</text>`,
    )
    .join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="Open drift at each ` +
    `check"><line x1="30" y1="${H - 24}" x2="${W - 10}" y2="${H - 24}" stroke="#e5e7eb"/><polyline points="${line}" fill="none" stroke="#6b7280" ` +
    `stroke-width="1.5"/>${dots}</svg>`
  );
}

function eventsTable(r: RunReport): string {
  if (r.events.length === 0) return '<p class="empty">No events.</p>';
  const rows = r.events.map((ev) => `<tr><td>${num(ev.seq)}</td><td>${e(ev.ts)}</td><td><code>${e(ev.type)}</code></td><td>${e(ev.message)}</td></tr>`);
  return `<table><thead><tr><th>Seq</th><th>Time</th><th>Type</th><th>Message</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function section(id: string, title: string, body: string): string {
  return `<section id="${id}" data-section="${id}"><h2>${e(title)}</h2>${body}</section>`;
}

/** The report of one run: a complete HTML document. */
export function renderRunReport(r: RunReport): string {
  const run = r.run;
  const total = r.steps.reduce((n, s) => n + (s.durationMs ?? 0), 0);
  const facts = [
    ["Goal", e(run.goal)],
    ["Created", e(run.createdAt)],
    ["Iteration", num(run.iteration)],
    ["Steps", `${r.steps.length} (agents' time ${e(formatDuration(total))})`],
    ["Specs", r.specs.length > 0 ? r.specs.map((s) => `<code>${e(s)}</code>`).join(", ") : '<span class="muted">none</span>'],
    [
      "Budgets",
      r.budgets !== null
        ? Object.entries(r.budgets)
            .map(([k, v]) => `${e(k)} ${e(String(v))}`)
            .join(", ")
        : '<span class="muted">–</span>',
    ],
    ["Directory", `<code>${e(run.runDir)}/</code>`],
  ];
  const header = [
    `<header><h1>Run <code>${e(run.runId)}</code> ${badge(run.status, cls(run.status, RUN_STATUSES))}` +
      `${run.verdict !== null ? ` ${badge(`verdict ${run.verdict}`, cls(run.verdict, ["PASS", "FAIL"]))}` : ""}</h1>`,
    '<nav><a href="#timeline">Timeline</a><a href="#criteria">Acceptance criteria</a><a href="#act">Act steps</a><a href="#tools">Tool calls</a><a ' +
      'href="#drift">Drift</a><a href="#events">Events</a></nav>',
    `<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl></header>`,
  ].join("");
  const once = r.drift.before !== null && r.drift.after !== null && r.drift.before.step === r.drift.after.step;
  const drift =
    `<div class="drift">${driftSvg(r.drift.series)}${driftList(r.drift.before, "Before")}` +
    `${driftList(r.drift.after, once ? "After (the same check: the run has one)" : "After")}</div>`;
  const body = [
    header,
    section("timeline", "Timeline", timelineSvg(r.steps) + stepsTable(r.steps)),
    section("criteria", "Acceptance criteria", criteriaSection(r)),
    section("act", "Act steps", actSection(r)),
    section("tools", "Tool calls", toolsSection(r)),
    section("drift", "Drift before and after", drift),
    section("events", "Events", eventsTable(r)),
  ].join("\n");
  return page(`Run ${run.runId}: ${run.status}`, body, r.tool, r.generatedAt);
}

/** The list of runs: a complete HTML document. */
export function renderRunsIndex(x: RunsIndex): string {
  const counts = RUN_STATUSES.map((s) => [s, x.runs.filter((r) => r.status === s).length] as const);
  const W = 480;
  const max = Math.max(1, ...counts.map(([, n]) => n));
  const bars = counts
    .map(
      ([s, n], i) =>
        `<text x="4" y="${22 + i * 24}">${s}</text><rect x="80" y="${10 + i * 24}" width="${((n / max) * (W - 140)).toFixed(1)}" height="16" rx="3" ` +
        `fill="${{ running: "#2563eb", passed: "#047857", failed: "#b91c1c", stopped: "#d97706" }[s]}"/><text x="` +
        `${(86 + (n / max) * (W - 140)).toFixed(1)}" y="${22 + i * 24}">${num(n)}</text>`,
    )
    .join("");
  const chart = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} 110" width="${W}" height="110" role="img" aria-label="Runs by status">${bars}</svg>`;
  const rows = x.runs.map(
    (r) =>
      `<tr><td><code>${e(r.runId)}</code></td><td>${badge(r.status, cls(r.status, RUN_STATUSES))}</td><td>` +
      `${r.verdict !== null ? badge(r.verdict, cls(r.verdict, ["PASS", "FAIL"])) : '<span class="muted">–</span>'}</td><td>${num(r.iteration)}` +
      `</td><td>${num(r.steps)}</td><td>${e(r.createdAt)}</td><td>${e(r.goal)}</td></tr>`,
  );
  const table =
    x.runs.length > 0
      ? `<table><thead><tr><th>Run</th><th>Status</th><th>Verdict</th><th>Iteration</th><th>Steps</th><th>Created</th><th>Goal</th></tr></thead><tbody>` +
        `${rows.join("")}</tbody></table>`
      : '<p class="empty">No runs yet.</p>';
  const more = x.total > x.runs.length ? `<p class="muted">${num(x.runs.length)} of ${num(x.total)} runs (newest first).</p>` : "";
  const body = [
    `<header><h1>Runs</h1><p>${num(x.total)} run${x.total === 1 ? "" : "s"} recorded in <code>.norma/norma.db</code>. <code>noma-reconcile runs ` +
      `show RUN_ID --html FILE</code> writes one run's report.</p></header>`,
    section("status", "By status", chart),
    section("runs", "Runs", table + more),
  ].join("\n");
  return page("Runs", body, x.tool, x.generatedAt);
}
