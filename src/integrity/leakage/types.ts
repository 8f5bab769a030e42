/** Result and option types of the leakage audit; every result is plain JSON. */

/** What a finding is about. */
export type LeakageKind =
  | "file-copy" // a private file byte-identical to a public one
  | "same-name-file" // a private file's name and size reappear in public/ with other bytes
  | "column-copy" // a public column equals a target on (nearly) every answer row
  | "one-to-one" // a public column is a relabelling of a target
  | "determines" // each value of a public column fixes the target (majority map near-perfect)
  | "single-feature" // one numeric column alone scores near-perfectly (|r| or AUC)
  | "id-overlap" // answer ids present in a public train file
  | "duplicate-rows" // identical feature rows in public train and test files
  | "not-checked"; // something the audit could not look at, and why

export type LeakageSeverity = "leak" | "warning" | "info";

/** One thing the audit found; `examples` holds at most `maxExamples` short strings. */
export interface LeakageFinding {
  kind: LeakageKind;
  severity: LeakageSeverity;
  message: string;
  /** Public file, relative to public/ ("/"-separated). */
  file?: string;
  /** Public column the finding is about. */
  column?: string;
  /** Target (answers column) it concerns. */
  target?: string;
  /** Share of the compared rows (0..1) the finding holds on. */
  share?: number;
  /** Rows (or files) involved. */
  count?: number;
  /** A score that is not a share of rows: Pearson/Spearman |r| or AUC. */
  statistic?: { name: "pearson" | "spearman" | "auc"; value: number };
  examples: string[];
}

/** What the audit looked at, so a clean report can be told from an empty one. */
export interface LeakageChecked {
  publicFiles: number;
  privateFiles: number;
  /** Files whose bytes were hashed (only those whose size equals a file on the other side). */
  filesHashed: number;
  answers: string;
  /** Rows of the answers table; null when the answers are not a CSV. */
  answerRows: number | null;
  idColumn: string | null;
  targets: { name: string; kind: "classes" | "numeric" | "text"; distinct: number }[];
  trainFiles: string[];
  testFiles: string[];
  /** Public CSVs read, with the number of their columns compared against the targets. */
  csvFiles: { file: string; rows: number; matchedRows: number; columnsCompared: number }[];
  /** Public files that were not read as CSV although they end in .csv, and why. */
  skipped: { file: string; reason: string }[];
}

/** The audit of one prepared competition. */
export interface LeakageReport {
  competition: string;
  /** True when any finding has severity "leak". */
  leaks: boolean;
  findings: LeakageFinding[];
  checked: LeakageChecked;
}

/** Knobs of the audit; the defaults suit every competition in the registry. */
export interface LeakageOptions {
  /** Id column of the answers; default: the offline layout's, else the sample submission's first column, else the answers' first. */
  idColumn?: string;
  /** Target columns; default: answers columns also in the sample submission (else all), minus the id. */
  targets?: readonly string[];
  /** Public train files (relative to public/); default: the offline layout's, else CSVs named *train*. */
  trainFiles?: readonly string[];
  /** Public test files; default: the offline layout's, else CSVs named *test* other than the sample submission. */
  testFiles?: readonly string[];
  /** Share of rows at which a column copy or a majority map counts as a leak (default 0.95). */
  minShare?: number;
  /** |Pearson| or |Spearman| (regression) or max(AUC, 1-AUC) (binary targets) counted as a leak (default 0.99). */
  minStatistic?: number;
  /** Targets with at most this many distinct values are classes (default 20). */
  maxClasses?: number;
  /** Fewest aligned rows a column comparison needs (default 10). */
  minRows?: number;
  /** Public CSVs larger than this are only hashed, not read (default 1 GiB). */
  maxCsvBytes?: number;
  /** Examples kept per finding (default 5). */
  maxExamples?: number;
}

/** Options with every default filled in. */
export type ResolvedOptions = Required<Omit<LeakageOptions, "idColumn" | "targets" | "trainFiles" | "testFiles">>;

/** Fill in the defaults of the numeric options. */
export function resolveOptions(o: LeakageOptions = {}): ResolvedOptions {
  return {
    minShare: o.minShare ?? 0.95,
    minStatistic: o.minStatistic ?? 0.99,
    maxClasses: o.maxClasses ?? 20,
    minRows: o.minRows ?? 10,
    maxCsvBytes: o.maxCsvBytes ?? 1024 ** 3,
    maxExamples: o.maxExamples ?? 5,
  };
}
