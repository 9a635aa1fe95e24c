/**
 * Chapters of a book manifest (`*.noma.yml`) in the pre-commit hook and the PR check, through
 * real `git commit`s and the real CLI:
 * - a chapter is judged in its book as staged (links into other chapters resolve); its own
 *   errors still show at its file and line; the book is the index, not the work tree;
 * - what a commit breaks elsewhere in the book is blocked at the links it breaks: a manifest
 *   that drops a chapter, a chapter edit that removes a linked section, a deleted chapter
 *   (book-chapter-missing once, at the manifest); a chapter no book lists any more;
 * - `ci` judges the same at HEAD against the merge-base.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.js";
import { git, tempRepo, writeTree } from "../../helpers/temp-repo.js";
import { commit, hookRepo } from "./hook-repo.js";

const MANIFEST = "title: Guide\nchapters:\n  - 01-intro.noma\n  - 02-risks.noma\n";
const INTRO = "# Intro\n\nRead [[risks]], then [[risks/mitigation]] and [[mitigation]].\n";
const RISKS = "# Risks\n\n## Mitigation\n\nBack to [[intro]].\n";
const BOOK = { "book/book.noma.yml": MANIFEST, "book/01-intro.noma": INTRO, "book/02-risks.noma": RISKS };

const head = (repo: string): string => git(repo, ["rev-parse", "HEAD"]).trim();
/** The ERROR/WARNING lines the hook printed. */
const findings = (output: string): string[] => output.split("\n").filter((l) => /^(ERROR|WARNING) /.test(l));

describe("pre-commit hook: a chapter is judged in its book", () => {
  it("a one-word edit of a chapter commits: its links into other chapters resolve in the staged book", () => {
    const repo = hookRepo(BOOK);
    writeTree(repo, { "book/01-intro.noma": INTRO.replace("Read", "First read") });
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "one word"]);
    expect(findings(r.output)).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("a chapter's own errors still block, at the chapter's file and line, and name the book a link is missing from", () => {
    const repo = hookRepo(BOOK);
    writeTree(repo, { "book/02-risks.noma": `${RISKS}\nSee [[nowhere]].\n\n::claim{id="x"}\nA.\n::\n\n::claim{id="x"}\nB.\n::\n` });
    git(repo, ["add", "."]);
    const before = head(repo);
    const r = commit(repo, ["-m", "own errors"]);
    expect(r.code).toBe(1);
    expect(findings(r.output).filter((l) => l.startsWith("ERROR"))).toEqual([
      "ERROR [broken-reference] book/02-risks.noma:7:5: [[nowhere]] points at an id that does not exist in book book/book.noma.yml.",
      'ERROR [duplicate-id] book/02-risks.noma:13:1: Two or more nodes carry the same canonical id "x" (lines 9, 13). (lines 13-15)',
    ]);
    expect(head(repo)).toBe(before);
  });

  it("the book is the index: a chapter staged without the manifest change that would add its link target is blocked", () => {
    const repo = hookRepo(BOOK);
    writeTree(repo, {
      "book/03-faq.noma": "# FAQ\n\nNone yet.\n",
      "book/book.noma.yml": `${MANIFEST}  - 03-faq.noma\n`,
      "book/01-intro.noma": `${INTRO}\nQuestions: [[faq]].\n`,
    });
    git(repo, ["add", "book/01-intro.noma", "book/03-faq.noma"]); // the manifest's new line stays unstaged
    const blocked = commit(repo, ["-m", "link without the manifest"]);
    expect(blocked.code).toBe(1);
    expect(findings(blocked.output)).toEqual([
      "ERROR [broken-reference] book/01-intro.noma:5:12: [[faq]] points at an id that does not exist in book book/book.noma.yml.",
    ]);
    git(repo, ["add", "book/book.noma.yml"]);
    const r = commit(repo, ["-m", "with the manifest"]);
    expect(findings(r.output)).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("git commit <path> judges the chapter in the book of the temporary index, not the real index's staged manifest", () => {
    const repo = hookRepo({ ...BOOK, "book/03-faq.noma": "# FAQ\n\nNone yet.\n" });
    writeTree(repo, { "book/book.noma.yml": `${MANIFEST}  - 03-faq.noma\n`, "book/01-intro.noma": `${INTRO}\nQuestions: [[faq]].\n` });
    git(repo, ["add", "book/book.noma.yml"]); // staged in the real index, not part of `git commit <path>`
    const only = commit(repo, ["-m", "only the chapter", "--", "book/01-intro.noma"]);
    expect(only.code).toBe(1);
    expect(findings(only.output)).toEqual([
      "ERROR [broken-reference] book/01-intro.noma:5:12: [[faq]] points at an id that does not exist in book book/book.noma.yml.",
    ]);
    expect(commit(repo, ["-m", "both", "--", "book/01-intro.noma", "book/book.noma.yml"]).code).toBe(0);
  });

  it("a chapter in two books must resolve its links in both", () => {
    const repo = hookRepo({ ...BOOK, "book/short.noma.yml": "chapters:\n  - 01-intro.noma\n" });
    writeTree(repo, { "book/01-intro.noma": INTRO.replace("Read", "First read") });
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "one word, two books"]);
    expect(r.code).toBe(1);
    expect(findings(r.output)).toEqual([
      "ERROR [broken-reference] book/01-intro.noma:3:12: [[risks]] points at an id that does not exist in book book/short.noma.yml (it does in book/book.noma.yml; a chapter's links must resolve in every book that lists it).",
      "ERROR [broken-reference] book/01-intro.noma:3:28: [[risks/mitigation]] points at an id that does not exist in book book/short.noma.yml (it does in book/book.noma.yml; a chapter's links must resolve in every book that lists it).",
      "ERROR [broken-reference] book/01-intro.noma:3:53: [[mitigation]] points at an id that does not exist in book book/short.noma.yml (it does in book/book.noma.yml; a chapter's links must resolve in every book that lists it).",
    ]);
  });
});

describe("pre-commit hook: what a commit breaks elsewhere in the book", () => {
  it("a manifest edit that drops a chapter is blocked at the links into it and at the dropped chapter's own links, not at links broken before", () => {
    const repo = hookRepo({ ...BOOK, "book/01-intro.noma": `${INTRO}\nAlso [[nowhere]].\n` });
    writeTree(repo, { "book/book.noma.yml": "title: Guide\nchapters:\n  - 01-intro.noma\n" });
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "drop risks"]);
    expect(r.code).toBe(1);
    expect(findings(r.output)).toEqual([
      "ERROR [broken-reference] book/01-intro.noma:3:6: [[risks]] points at an id that does not exist in book book/book.noma.yml (it did at HEAD).",
      "ERROR [broken-reference] book/01-intro.noma:3:22: [[risks/mitigation]] points at an id that does not exist in book book/book.noma.yml (it did at HEAD).",
      "ERROR [broken-reference] book/01-intro.noma:3:47: [[mitigation]] points at an id that does not exist in book book/book.noma.yml (it did at HEAD).",
      "ERROR [broken-reference] book/02-risks.noma:5:9: [[intro]] points at an id that does not exist now that no book lists this chapter (it did at HEAD).",
    ]);
    // A manifest edit that removes nothing: the link that was broken before is not this commit's doing.
    writeTree(repo, { "book/book.noma.yml": MANIFEST.replace("Guide", "The guide") });
    git(repo, ["add", "."]);
    const retitle = commit(repo, ["-m", "retitle"]);
    expect(findings(retitle.output)).toEqual([]);
    expect(retitle.code).toBe(0);
  });

  it("a chapter edit (manifest unchanged) that removes a linked section is blocked at the other chapter's links; one that removes nothing linked commits", () => {
    const repo = hookRepo(BOOK);
    writeTree(repo, { "book/02-risks.noma": "# Risks\n\n## Mitigations\n\nBack to [[intro]].\n" });
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "rename the section"]);
    expect(r.code).toBe(1);
    expect(findings(r.output)).toEqual([
      "ERROR [broken-reference] book/01-intro.noma:3:22: [[risks/mitigation]] points at an id that does not exist in book book/book.noma.yml (it did at HEAD).",
      "ERROR [broken-reference] book/01-intro.noma:3:47: [[mitigation]] points at an id that does not exist in book book/book.noma.yml (it did at HEAD).",
    ]);
    writeTree(repo, { "book/02-risks.noma": `${RISKS}\n## Residual risk\n\nSmall.\n` });
    git(repo, ["add", "."]);
    expect(commit(repo, ["-m", "add a section"]).code).toBe(0);
  });

  it("deleting a chapter the manifest still lists: book-chapter-missing once, at the manifest, and the links into it", () => {
    const repo = hookRepo(BOOK);
    git(repo, ["rm", "-q", "book/02-risks.noma"]);
    const r = commit(repo, ["-m", "delete risks"]);
    expect(r.code).toBe(1);
    expect(findings(r.output)).toEqual([
      "ERROR [broken-reference] book/01-intro.noma:3:6: [[risks]] points at an id that does not exist in book book/book.noma.yml (it did at HEAD).",
      "ERROR [broken-reference] book/01-intro.noma:3:22: [[risks/mitigation]] points at an id that does not exist in book book/book.noma.yml (it did at HEAD).",
      "ERROR [broken-reference] book/01-intro.noma:3:47: [[mitigation]] points at an id that does not exist in book book/book.noma.yml (it did at HEAD).",
      'ERROR [book-chapter-missing] book/book.noma.yml:4:1: Chapter "02-risks.noma" does not exist (paths are relative to the manifest).',
    ]);
  });
});

describe("ci: chapters judged in their book at HEAD", () => {
  const ci = (repo: string): { code: number; stdout: string } => runCli(["ci", "--base", "main"], { cwd: repo });

  it("a one-word chapter edit passes; a later commit removing a linked section fails at the links of the chapter the PR did not touch", () => {
    const repo = tempRepo(BOOK);
    git(repo, ["checkout", "-qb", "feature"]);
    writeFileSync(join(repo, "book/02-risks.noma"), RISKS.replace("Back", "Return"));
    git(repo, ["commit", "-qam", "one word"]);
    const ok = ci(repo);
    expect(ok.stdout).not.toContain("ERROR");
    expect(ok.code).toBe(0);

    writeFileSync(join(repo, "book/02-risks.noma"), "# Risks\n\nNothing to mitigate.\n");
    git(repo, ["commit", "-qam", "drop the section"]);
    const mergeBase = git(repo, ["merge-base", "main", "HEAD"]).trim().slice(0, 12);
    const broken = ci(repo);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      `ERROR [broken-reference] book/01-intro.noma:3:22: [[risks/mitigation]] points at an id that does not exist in book book/book.noma.yml (it did at the merge-base ${mergeBase}).`,
    );
    expect(broken.stdout).not.toContain("[[risks]]");
  });

  it("a chapter deleted from HEAD while the manifest lists it: book-chapter-missing at the manifest", () => {
    const repo = tempRepo(BOOK);
    git(repo, ["checkout", "-qb", "feature"]);
    rmSync(join(repo, "book/02-risks.noma"));
    git(repo, ["commit", "-qam", "delete"]);
    const r = ci(repo);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('ERROR [book-chapter-missing] book/book.noma.yml:4:1: Chapter "02-risks.noma" does not exist');
    expect(r.stdout).toContain("ERROR [broken-reference] book/01-intro.noma:3:6: [[risks]]");
  });
});
