/**
 * The HTML run report in a real headless browser: Debian's chromium (/usr/bin/chromium) driven
 * by playwright-core. A real run through the real CLI — a spec whose name is markup, a goal with a
 * script in it, an ACP act agent whose patch adds a line of HTML and whose requests are ledger
 * lines — then `runs show --html` and `runs report`; the pages load from file:// with no console
 * error, no dialog, no request but the page itself, every section rendered with its content (the
 * hostile text shown as text), and a screenshot is taken. Without a browser the test is skipped,
 * and says so (.ci/run installs it).
 */
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-repo.js";
import { cli, runIds, runRepo } from "./helpers/run-repo.js";

const BROWSER = "/usr/bin/chromium";
const HAVE_BROWSER = existsSync(BROWSER);
if (!HAVE_BROWSER)
  process.stderr.write(`\nSKIPPED test/runs/run-report-browser.test.ts: no browser at ${BROWSER} (install it: apt-get install -y chromium; .ci/run does)\n\n`);

const ACP_AGENT = fileURLToPath(new URL("./helpers/acp-agent.mjs", import.meta.url));
const HOSTILE_SPEC = ".notarai/<img src=x onerror=alert(1)>.spec.yaml";
const GOAL = `Fix the drift <script>alert("goal")</script> & keep "quotes"`;
const HOSTILE_LINE = `export const banner = "</pre><script>alert('diff')</script><b>bold</b>";`;
const DIFF = ["--- a/lib/x.ts", "+++ b/lib/x.ts", "@@ -1 +1 @@", "-export const x = 1;", `+${HOSTILE_LINE}`, ""].join("\n");

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Width and height of a PNG (its IHDR chunk). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("the HTML run report in a headless browser", () => {
  it.skipIf(!HAVE_BROWSER)(
    `renders every section with no console error and no network request; hostile text stays text; a screenshot is taken${HAVE_BROWSER ? "" : ` (SKIPPED: no browser at ${BROWSER})`}`,
    async () => {
      const root = runRepo({
        extra: {
          ".notarai/config.yaml": "workspace:\n  ledger: evidence/tools.log\n  archive: evidence/archive\n",
          [HOSTILE_SPEC]:
            'schema_version: "0.7"\nintent: "A library with a hostile name."\nbehaviors:\n  - name: exports\n    given: "an import"\n    then: "x is there"\nartifacts:\n  code:\n    - path: "lib/**"\n',
          "lib/x.ts": "export const x = 1;\n",
        },
        config: { agents: { act: { type: "acp", cmd: ["node", ACP_AGENT, "agents/act.json"], timeout_ms: 60_000 } } },
        behaviors: {
          "act.json": {
            actions: [
              { read: "${prev}/verdict.json" },
              { permission: { kind: "edit", title: "<script>alert('title')</script>", locations: ["${cwd}/lib/x.ts"] } },
              { write: "${step_dir}/patch.diff", content: DIFF },
              {
                write: "${step_dir}/reconciled.json",
                content: JSON.stringify([
                  { spec: HOSTILE_SPEC, path: "lib/x.ts", note: "<i>reviewed</i>" },
                  { spec: HOSTILE_SPEC, path: HOSTILE_SPEC, note: "new spec" },
                ]),
              },
            ],
            summary: "AC1: <em>fixed</em> the library",
          },
        },
      });
      const r = cli(root, ["run", "--spec", HOSTILE_SPEC, "--goal", GOAL, "--format", "json"]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).result).toMatchObject({ status: "passed", iteration: 2 });
      const id = runIds(root)[0]!;
      // A second run, so the list has two.
      expect(cli(root, ["run", "--spec", HOSTILE_SPEC, "--goal", "again"]).code).toBe(0);

      const show = cli(root, ["runs", "show", id, "--html", ".norma/report.html"]);
      expect(show.code, show.stderr).toBe(0);
      expect(show.stdout).toMatch(new RegExp(`^Wrote \\.norma/report\\.html \\(\\d+ bytes\\): the report of run ${id} \\(passed, 7 steps\\)\\.\\n$`));
      const list = cli(root, ["runs", "report", ".norma/runs.html", "--format", "json"]);
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).toMatchObject({ command: "runs report", result: { file: ".norma/runs.html", run_id: null, runs: 2 } });
      const page = join(root, ".norma/report.html");
      expect(JSON.parse(list.stdout).result.bytes).toBe(statSync(join(root, ".norma/runs.html")).size);

      const { chromium } = await import("playwright-core");
      const shots = tempDir("nr-report-shots-");
      const profile = join(tempDir("nr-chromium-"), "profile");
      mkdirSync(profile);
      const browser = await chromium.launchPersistentContext(profile, {
        executablePath: BROWSER,
        headless: true,
        args: FLAGS,
        viewport: { width: 1200, height: 900 },
        offline: true,
      });
      try {
        const tab = await browser.newPage();
        /** An element's text as a reader sees it (rendered: line breaks between blocks). */
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what this test reads
        const seen = (selector: string): Promise<string> => tab.locator(selector).innerText();
        const errors: string[] = [];
        const dialogs: string[] = [];
        const requests: string[] = [];
        tab.on("console", (m) => {
          if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
        });
        tab.on("pageerror", (err) => errors.push(err.message));
        tab.on("dialog", (d) => {
          dialogs.push(d.message());
          void d.dismiss();
        });
        browser.on("request", (q) => requests.push(q.url()));
        const url = pathToFileURL(page).href;
        await tab.goto(url, { waitUntil: "load" });

        // Every section rendered, with its heading, and something in it.
        const sections = await tab.$$eval("section[data-section]", (els) =>
          els.map((el) => ({ id: el.id, heading: el.querySelector("h2")?.textContent ?? "", height: el.getBoundingClientRect().height })),
        );
        expect(sections.map((s) => [s.id, s.heading])).toEqual([
          ["timeline", "Timeline"],
          ["criteria", "Acceptance criteria"],
          ["act", "Act steps"],
          ["tools", "Tool calls"],
          ["drift", "Drift before and after"],
          ["events", "Events"],
        ]);
        for (const s of sections) expect(s.height, s.id).toBeGreaterThan(40);
        // The timeline: one bar per step, drawn.
        const bars = await tab.$$eval("#timeline svg rect", (els) => els.map((el) => el.getBoundingClientRect().width));
        expect(bars).toHaveLength(7);
        for (const w of bars) expect(w).toBeGreaterThan(0);
        expect(await tab.$$eval("#timeline tbody tr", (els) => els.map((el) => el.querySelectorAll("td")[1]!.textContent))).toEqual([
          "plan",
          "do",
          "check",
          "act",
          "plan",
          "do",
          "check",
        ]);
        // The criteria: FAIL at the first check, PASS at the second, with the evidence named.
        const criteria = await seen("#criteria tbody");
        expect(criteria).toContain(`AC1 no unreconciled drift for ${HOSTILE_SPEC}`);
        expect(criteria).toMatch(/FAIL\s+PASS/);
        expect(criteria).toContain("files/drift-1.json");
        // The act step's diff, its hostile line shown as text.
        expect(await tab.$eval("#act pre.diff .add", (el) => el.textContent)).toBe(`+${HOSTILE_LINE}`);
        expect(await seen("#act")).toContain("AC1: <em>fixed</em> the library");
        // The ledger lines of the act step's requests.
        const tools = await seen("#tools");
        // …of the run's worktree, where its tools wrote.
        expect(tools).toContain(`From the evidence ledger .norma/worktrees/${id}/evidence/tools.log.`);
        expect(tools).toMatch(/Step 004 act · 5 calls/);
        expect(tools).toContain("session/request_permission");
        expect(tools).toContain("fs/write_text_file");
        // Drift: the file and the new spec open before, both acknowledged after.
        const drift = (await seen("#drift")).replace(/\n+/g, "\n");
        expect(drift).toContain(`Before (check 003, iteration 1)\n${HOSTILE_SPEC}: 2 open of 2`);
        expect(drift).toContain(`After (check 007, iteration 2)\n${HOSTILE_SPEC}: 0 open of 2`);
        expect(await tab.$$eval("#drift svg circle", (els) => els.length)).toBe(2);
        // The goal and the spec name are text; nothing in the page is an element they could have made.
        expect(await tab.title()).toBe(`Run ${id}: passed`);
        expect(await seen("dl.facts")).toContain(GOAL);
        expect(await tab.$$eval("script, img, iframe, object, embed, link, b, i, em", (els) => els.length)).toBe(0);

        const shot = join(shots, "report.png");
        await tab.screenshot({ path: shot, fullPage: true });
        const png = readFileSync(shot);
        const size = pngSize(png);
        expect(size.width).toBe(1200);
        expect(size.height).toBeGreaterThan(1500);
        expect(png.length).toBeGreaterThan(50_000);

        // The list of runs.
        const listUrl = pathToFileURL(join(root, ".norma/runs.html")).href;
        await tab.goto(listUrl, { waitUntil: "load" });
        expect(await tab.$$eval("#runs tbody tr", (els) => els.length)).toBe(2);
        expect(await seen("#runs")).toContain(GOAL);
        expect(await tab.$$eval("#status svg rect", (els) => els.length)).toBe(4);
        const listShot = join(shots, "runs.png");
        await tab.screenshot({ path: listShot, fullPage: true });
        expect(pngSize(readFileSync(listShot)).width).toBe(1200);

        expect(errors).toEqual([]);
        expect(dialogs).toEqual([]);
        expect(requests).toEqual([url, listUrl]);
      } finally {
        await browser.close();
      }
    },
    180_000,
  );
});
