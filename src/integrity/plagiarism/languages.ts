/**
 * Which Dolos language parses a file, decided by its extension. The table mirrors the languages
 * @dodona/dolos-lib 3.5 ships tree-sitter parsers for; its plain-text tokenizer (.txt, .md) is left
 * out on purpose, since prose shared with a kernel says nothing about copied code.
 */
import path from "node:path";

const EXTENSIONS: Record<string, readonly string[]> = {
  bash: [".sh", ".bash"],
  c: [".c"],
  // Dolos lists ".h" under both C and C++; its own picker settles on C++, and so does this table.
  cpp: [".cpp", ".hpp", ".cc", ".cp", ".cxx", ".c++", ".h", ".hh", ".hxx", ".h++"],
  "c-sharp": [".cs", ".csx"],
  python: [".py", ".py3"],
  php: [".php", ".php3", ".php4", ".php5", ".php7", ".phps", ".phpt", ".phtml"],
  modelica: [".mo", ".mos"],
  ocaml: [".ml"],
  java: [".java"],
  javascript: [".js", ".mjs", ".cjs"],
  elm: [".elm"],
  go: [".go"],
  groovy: [".groovy", ".gvy", ".gy", ".gsh"],
  r: [".r"],
  rust: [".rs"],
  scala: [".scala", ".sc"],
  sql: [".sql"],
  typescript: [".ts", ".mts", ".cts"],
  tsx: [".tsx"],
  verilog: [".v", ".vh"],
};

const BY_EXTENSION = new Map<string, string>(
  Object.entries(EXTENSIONS).flatMap(([language, exts]) => exts.map((ext) => [ext, language] as [string, string])),
);

/** Every language name the comparison can use, e.g. "python", "r", "javascript". */
export const DOLOS_LANGUAGES: readonly string[] = Object.keys(EXTENSIONS);

/** The Dolos language for `file` by its extension (case-insensitive, so both .R and .r are R); null if none. */
export function dolosLanguageOf(file: string): string | null {
  return BY_EXTENSION.get(path.extname(file).toLowerCase()) ?? null;
}

/** The Dolos language for a notebook's kernel language name ("python", "R", "ir"), or null if Dolos has none. */
export function dolosLanguageOfNotebook(kernelLanguage: string): string | null {
  const name = kernelLanguage.trim().toLowerCase();
  if (name === "ir") return "r";
  return Object.hasOwn(EXTENSIONS, name) ? name : null;
}

/** The file extension code in `language` is saved under (".py" for python, ".R" for r). */
export function extensionOf(language: string): string {
  if (language === "r") return ".R";
  const exts = EXTENSIONS[language];
  return exts ? exts[0]! : ".txt";
}
