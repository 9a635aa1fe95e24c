/**
 * noma-reconcile — the library. The CLI, the MCP server, the hooks and the
 * GitHub Action are thin shells over these functions.
 */
export type * from "./noma/ast.js";
export { parseNoma, lineText, indexLines, directiveAttrTokens, classifyColonLine, parseHeadingLine, type ParseOptions, type LineIndex } from "./noma/parse-noma.js";
export { renderNoma } from "./noma/render-noma.js";
export { documentStructure, type DocumentStructure } from "./noma/structure.js";
export { astToJson } from "./noma/ast-json.js";
export { walkBlocks, idSummary } from "./noma/walk.js";
export { slugify } from "./noma/slugify.js";
export { splitLines, rawLinesForHash } from "./noma/split-lines.js";
export { parseBook, parseBookManifest, chapterSlug, type Book, type BookChapter } from "./noma/parse-book.js";
export { validateNoma, type ValidateOptions } from "./validate/validate-noma.js";
export { summarize, type Diagnostic, type Severity, type ValidationSummary } from "./validate/diagnostic.js";
export { RULES, type RuleCode } from "./validate/rule-catalog.js";
export { KNOWN_PROFILES, PROFILE_ALLOWLISTS } from "./validate/profiles.js";
export { parseFormula } from "./validate/parse-formula.js";
export { checkDocument, type CheckOptions } from "./check/check-document.js";
export type { FileDiagnostics } from "./report/file-diagnostics.js";
export { formatDiagnosticsText } from "./report/format-text.js";
export { formatDiagnosticsJson } from "./report/format-json.js";
export { formatGithubAnnotations, formatMarkdownSummary } from "./report/format-github.js";
export { formatSarif } from "./report/format-sarif.js";
export { verifyCorpus, type CorpusReport, type FixtureResult } from "./verify/verify-corpus.js";
export { evaluateFixture, type FixturePatchEngine } from "./verify/evaluate-fixture.js";
export { TOOL_NAME, TOOL_VERSION } from "./version.js";
