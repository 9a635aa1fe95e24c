// A large synthetic .noma document: thousands of sections, directives (nested, with
// references and wikilinks), tables, lists, code fences and paragraphs.
export function generateDocument(targetBytes) {
  const parts = ["---\ntitle: Generated benchmark document\nprofile: research\naliases: [bench]\n---\n\n# Benchmark\n"];
  let size = parts[0].length;
  let i = 0;
  while (size < targetBytes) {
    const s = [
      `## Section ${i} {id="s${i}"}`,
      "",
      `Paragraph ${i} with **bold** text, a link to [[c${i}]] and some \`inline code\` that goes on for a while to look like prose.`,
      "A second line of the same paragraph, so paragraphs span lines.",
      "",
      `::claim{id="c${i}" confidence=0.${i % 10} owner="team-${i % 7}"}`,
      `Claim number ${i}: the system behaves as described in [[s${i}]].`,
      "::",
      "",
      `::evidence{id="e${i}" for="c${i}"}`,
      `Measured on run ${i}.`,
      "::",
      "",
      `::section{id="box${i}"}`,
      `:::risk{id="r${i}" owner="ops" severity="low"}`,
      "A nested risk.",
      ":::",
      "::",
      "",
      "| Metric | Value | Unit |",
      "|:-------|------:|:----:|",
      `| latency | ${i} | ms |`,
      `| throughput | ${i * 3} | rps |`,
      "",
      "- first item",
      "- second item",
      "",
      "```js",
      `const x${i} = ${i}; // ::not-a-directive`,
      "```",
      "",
    ].join("\n");
    parts.push(s);
    size += s.length + 1;
    i++;
  }
  return { text: parts.join("\n"), sections: i };
}
