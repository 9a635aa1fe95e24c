/** Options of `parseNoma` (parse-noma.ts), kept with a parse for re-parsing. */
export interface ParseOptions {
  /**
   * Extra aliases for the document's root section (the first top-level H1):
   * book mode attaches the chapter filename slug this way.
   */
  rootAliases?: string[];
}
