import type { Table } from "./table.js";

/**
 * Where a real dataset ships: a file or folder installed by a Debian package, a file inside an npm
 * package, or a dataset of an R package from Debian (`library::dataset`, loaded by the data()
 * `topic` when that differs from the object's name), which preparing exports to CSV.
 */
export type PackageSource =
  | { kind: "debian"; package: string; path: string }
  | { kind: "npm"; package: string; file: string }
  | { kind: "r"; package: string; library: string; dataset: string; topic?: string };

/** Answers as a grader receives them: a table for CSV answers, parsed lines for JSONL. */
export type Answers = Table | unknown[];

/** A grading function: the score of a submission, or InvalidSubmissionError (or any Error) when it cannot be graded. */
export type GradeFn = (submission: Table, answers: Answers) => number;

/** What a competition's grade.ts exports. */
export interface GraderModule {
  grade: GradeFn;
}

/**
 * A competition: metadata, and its grader and preparers as modules imported on first use, so a
 * command that only lists or names competitions never loads the code of a hundred graders.
 */
export interface Competition {
  /** Upstream id, e.g. "spaceship-titanic". */
  id: string;
  name: string;
  /** "simple" or "code" as on Kaggle (upstream's competition_type). */
  type: "simple" | "code";
  complexity?: "low" | "medium" | "high";
  category?: string;
  /** Human-readable metric name, e.g. "accuracy" (upstream's grader name). */
  metric: string;
  /** Answers file, relative to `<data>/<id>/prepared/private`. */
  answers: string;
  /**
   * For JSONL answers: the fields of each line the grader reads; the others are dropped while
   * loading (answers holding whole documents can be gigabytes).
   */
  answersFields?: readonly string[];
  /** Sample submission, relative to `<data>/<id>/prepared/public`. */
  sampleSubmission: string;
  /** Import the grader (see loadGrader in competitions/registry.ts, which gives a GradableCompetition). */
  grader(): Promise<GraderModule>;
  /** Present for competitions of the embedded offline benchmark. */
  offline?: OfflineSpec;
  /** Present for upstream (Kaggle) competitions whose preparer is implemented: imports it. */
  upstream?: () => Promise<UpstreamSpec>;
}

/** A competition whose grader is loaded: what the synchronous grading code takes. */
export interface GradableCompetition extends Competition {
  grade: GradeFn;
}

/** Where an upstream preparer reads the unpacked Kaggle data and writes the split. */
export interface UpstreamPrepareContext {
  raw: string;
  public: string;
  private: string;
}

/** How an upstream competition's Kaggle data becomes public/ and private/ (upstream's prepare.py): what its prepare.ts exports. */
export interface UpstreamSpec {
  prepare(ctx: UpstreamPrepareContext): void | Promise<void>;
  /**
   * Prepared files ("public/<file>", "private/<file>") whose bytes cannot match upstream's
   * checksums although their content does (e.g. Parquet written by another library); the
   * competition folder's README.md says why. Their md5s are not compared.
   */
  unverifiable?: readonly string[];
}

/** Where a preparer writes: the public and private directories, and resolved source files. */
export interface PrepareContext {
  /**
   * Absolute paths of the competition's sources, by the names its spec gives them: the file (or
   * folder) a package installed, or for an R dataset the CSV it was exported to.
   */
  sources: Record<string, string>;
  public: string;
  private: string;
}

/**
 * A competition whose data ships inside npm or Debian packages, prepared without any download.
 * Its folder also holds description.md, leaderboard.csv (a reference population) and
 * checksums.json (md5 of every prepared file, verified on each prepare).
 */
export interface OfflineSpec {
  /** Position in the offline split, and so in `mlebench demo`: smallest first (ties by id). */
  order: number;
  /** In the `offline-lite` split, the quick subset `mlebench demo` runs by default. */
  lite?: boolean;
  sources: Record<string, PackageSource>;
  /** Directory holding description.md, leaderboard.csv and checksums.json. */
  assets: string;
  /** The public files and id column, for checks that the split leaks nothing. */
  layout: { train: string; test: string; id: string };
  /** Import the preparer, whose `prepare` writes the public and private files; it must be deterministic. */
  preparer(): Promise<OfflinePreparer>;
}

/** What an offline competition's prepare.ts exports. */
export interface OfflinePreparer {
  prepare(ctx: PrepareContext): void | Promise<void>;
}
