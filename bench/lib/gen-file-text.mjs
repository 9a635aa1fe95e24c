// ~1 KB of deterministic, varied text for file number i (generated repositories).
export function fileText(i) {
  let s = `// file ${i}\n`;
  let x = (i * 2654435761) >>> 0;
  while (s.length < 1000) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += `line ${x.toString(36)} ${(x >>> 7).toString(16)} lorem ipsum dolor sit amet\n`;
  }
  return `${s.slice(0, 1000)}\n`;
}
