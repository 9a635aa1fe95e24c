/**
 * Where a JSON text first goes wrong (RFC 8259, exactly what JSON.parse
 * accepts): the offset, 1-based line and column, and what was expected.
 * Node 20's JSON.parse names no position, and `init` must name the position
 * in an unparseable `.mcp.json` it refuses to touch. Only used on that error
 * path; returns null for valid JSON.
 */
export interface JsonSyntaxError {
  offset: number;
  line: number;
  column: number;
  message: string;
}

class Stop {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const n = text.length;
  const found = (): string => (i >= n ? "end of input" : JSON.stringify(text[i]));
  const fail = (expected: string): never => {
    throw new Stop(i, `expected ${expected}, found ${found()}`);
  };
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k++) {
      if (text[i] !== word[k]) fail(`"${word}"`);
      i++;
    }
  };
  const digits = (): void => {
    const start = i;
    while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    if (i === start) fail("a digit");
  };
  const number = (): void => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else digits();
    if (text[i] === ".") {
      i++;
      digits();
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      digits();
    }
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= n) fail('a closing \'"\'');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail("a character (control characters must be escaped)");
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === "u") {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail("a hex digit");
            i++;
          }
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail("an escape (one of \" \\ / b f n r t u)");
      } else i++;
    }
  };
  const value = (depth: number): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("a property name in double quotes");
        string();
        ws();
        if (text[i] !== ":") fail('":"');
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail('"," or "}"');
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail('"," or "]"');
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number();
    fail("a JSON value");
  };
  try {
    value(0);
    ws();
    if (i < n) fail("end of input");
    return null;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < e.offset && k < n; k++) {
      if (text.charCodeAt(k) === 0x0a) {
        line++;
        lineStart = k + 1;
      }
    }
    return { offset: e.offset, line, column: e.offset - lineStart + 1, message: e.message };
  }
}
