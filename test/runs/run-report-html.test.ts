/**
 * The HTML run report as a pure function (src/runs/report/render-run-report.ts): every section
 * from a run's data, and — with fast-check — that no value from the records ever becomes markup:
 * whatever text is put in every field (spec names, goals, diffs, ledger paths, evidence, event
 * messages), the page's tags are exactly those of the same page with harmless text, there is no
 * script, and the text comes back out unchanged when the page's text is read.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml, formatDuration, renderRunReport, renderRunsIndex } from "../../src/runs/report/render-run-report.js";
import type { ReportStep, RunReport, RunsIndex } from "../../src/runs/report/run-report-model.js";

function step(index: number, role: ReportStep["role"], over: Partial<ReportStep> = {}): ReportStep {
  return {
    index,
    role,
    iteration: 1,
    status: "ok",
    summary: `${role} done`,
    stepDir: `.norma/runs/R/steps/00${index}-${role}`,
    startedAt: `2026-01-05T10:00:0${index}.000Z`,
    endedAt: `2026-01-05T10:00:0${index}.500Z`,
    durationMs: 500,
    verdict: null,
    patch: null,
    changedFiles: [],
    ledger: [],
    ...over,
  };
}

/** A report whose every text field is `t` (the step structure fixed). */
function report(t: string): RunReport {
  const line = t.replace(/\n/g, " ");
  return {
    tool: { name: "noma-reconcile", version: "0.1.0" },
    generatedAt: "2026-01-05T10:01:00.000Z",
    run: { runId: "20260105-100000-ab12cd", status: "passed", verdict: "PASS", iteration: 2, goal: t, createdAt: t, runDir: t },
    criteria: [{ id: "AC1", text: t }],
    specs: [t],
    budgets: { max_iterations: 5 },
    steps: [
      step(1, "plan", { summary: t, stepDir: t }),
      step(2, "check", {
        status: "ok",
        summary: t,
        verdict: { verdict: "FAIL", criteria: [{ id: "AC1", text: t, pass: false, evidence: t, excerpt: t, excerptTruncated: true }] },
      }),
      step(3, "act", {
        summary: t,
        // One diff line per line of text: the text's own line breaks would add lines (markup), as they should.
        patch: { diff: `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${line}\n+${line}\n ${line}\n`, noma: t, truncated: false },
        changedFiles: [t],
        ledger: [{ seq: 7, timestamp: t, action: t, path: t, outcome: t, code: t, acp: t, via: t }],
      }),
      step(4, "check", { verdict: { verdict: "PASS", criteria: [{ id: t, text: t, pass: true, evidence: "", excerpt: null, excerptTruncated: false }] } }),
    ],
    drift: {
      before: { step: 2, iteration: 1, specs: [{ spec: t, files: [{ path: t, acknowledged: false, problem: t }] }] },
      after: { step: 4, iteration: 2, specs: [{ spec: t, files: [{ path: t, acknowledged: true, problem: null }] }] },
      series: [
        { step: 2, iteration: 1, open: 1, total: 1 },
        { step: 4, iteration: 2, open: 0, total: 1 },
      ],
    },
    events: [{ seq: 1, ts: t, type: t, message: t }],
    ledgerFile: t,
  };
}

/** The tag names of a page, in order (what the markup is, whatever the text). */
function tags(html: string): string[] {
  return [...html.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)/g)].map((m) => m[0]!);
}

/** The page's text as a browser reads it, entities decoded (enough for these pages: no CDATA, no comments). */
function decode(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39);/g, (_, n: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[n]!);
}

describe("the run report page", () => {
  it("has every section, its timeline and drift charts inline, and nothing to fetch", () => {
    const html = renderRunReport(report("plain text"));
    expect(html.startsWith("<!DOCTYPE html>\n")).toBe(true);
    for (const id of ["timeline", "criteria", "act", "tools", "drift", "events"]) expect(html).toContain(`<section id="${id}" data-section="${id}">`);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`,
    );
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html.match(/<rect /g)).toHaveLength(4);
    expect(html).toContain('<span class="del">-plain text</span><span class="add">+plain text</span>');
    expect(html).toContain("<h3>Before (check 002, iteration 1)</h3>");
    expect(html).toContain("<h3>After (check 004, iteration 2)</h3>");
    expect(html).not.toMatch(/<script|<link|<img|<iframe|https?:\/\/(?!www\.w3\.org\/2000\/svg)|url\(|@import|@font-face/i);
    const index: RunsIndex = {
      tool: { name: "noma-reconcile", version: "0.1.0" },
      generatedAt: "now",
      runs: [{ runId: "20260105-100000-ab12cd", status: "failed", verdict: "FAIL", iteration: 3, steps: 12, createdAt: "then", goal: "g" }],
      total: 3,
    };
    const list = renderRunsIndex(index);
    expect(list).toContain('<section id="runs" data-section="runs">');
    expect(list).toContain('<p class="muted">1 of 3 runs (newest first).</p>');
    expect(list).not.toMatch(/<script|<img|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
  });

  it("hostile text stays text: a spec name, a diff or a ledger path with markup in it", () => {
    const hostile = `"><script>alert(1)</script><img src=x onerror=alert(2)></pre></style><!--`;
    const html = renderRunReport(report(hostile));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<!--");
    expect(html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&lt;/pre&gt;&lt;/style&gt;&lt;!--");
    expect(tags(html)).toEqual(tags(renderRunReport(report("x"))));
    expect(escapeHtml("a\u0000b")).toBe("a\uFFFDb");
  });

  it("property: whatever text the records hold, the markup is the same and the text reads back", () => {
    const reference = tags(renderRunReport(report("x")));
    const referenceIndex = (t: string): RunsIndex => ({
      tool: { name: "noma-reconcile", version: "0.1.0" },
      generatedAt: t,
      runs: [{ runId: t, status: t, verdict: t, iteration: 1, steps: 2, createdAt: t, goal: t }],
      total: 1,
    });
    const indexTags = tags(renderRunsIndex(referenceIndex("x")));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom("<", ">", "&", '"', "'", "/", "=", "a", " ", "\n", "-", "!", "\u0000") })), (t) => {
        const html = renderRunReport(report(t));
        expect(tags(html)).toEqual(reference);
        expect(html).not.toMatch(/<script/i);
        // The goal is in the title and the facts, exactly as given (NUL shown as U+FFFD).
        const title = /<title>([^<]*)<\/title>/.exec(html)![1]!;
        expect(decode(title)).toBe("Run 20260105-100000-ab12cd: passed");
        const goal = /<dt>Goal<\/dt><dd>([^<]*)<\/dd>/.exec(html)![1]!;
        expect(decode(goal)).toBe(t.replace(/\u0000/g, "\uFFFD"));
        expect(tags(renderRunsIndex(referenceIndex(t)))).toEqual(indexTags);
      }),
      { numRuns: 300 },
    );
  });

  it("durations read as people say them", () => {
    expect([null, -1, 12, 999, 1500, 61_000, 3_725_000].map(formatDuration)).toEqual(["–", "–", "12 ms", "999 ms", "1.5 s", "1 min 1 s", "1 h 2 min"]);
  });
});
