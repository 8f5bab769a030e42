/**
 * The part of @dodona/dolos-lib's API the comparison uses, declared here so that the project
 * builds and installs where that optional dependency (whose parsers are compiled natively on
 * install) could not be installed; comparing code then says what to install.
 */
export interface DolosFile {
  readonly path: string;
}

interface DolosSelection {
  startRow: number;
  endRow: number;
}

interface DolosFragment {
  leftSelection: DolosSelection;
  rightSelection: DolosSelection;
  leftkgrams: unknown[];
}

/** Two files' shared fragments and their similarity. */
export interface DolosPair {
  leftFile: DolosFile;
  similarity: number;
  longest: number;
  buildFragments(): DolosFragment[];
}

/** The result of one analysis: the tokenized files and their pairs. */
export interface DolosReport {
  files: DolosFile[];
  getPair(a: DolosFile, b: DolosFile): DolosPair;
}

interface DolosLanguage {
  createTokenizer(): Promise<{ tokenizeFile(file: DolosFile): unknown }> | { tokenizeFile(file: DolosFile): unknown };
}

/** The module's constructors that are used. */
export interface DolosLib {
  File: new (path: string, content: string) => DolosFile;
  Dolos: new (options: { language: string }) => { analyze(files: DolosFile[]): Promise<DolosReport> };
  LanguagePicker: new () => { findLanguage(name: string): Promise<DolosLanguage> };
}
