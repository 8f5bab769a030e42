/** The options of a CSV read and the shape limits they resolve to. */
import { CsvParseError } from "../../core/errors.js";

/** Options for {@link readCsv}, {@link parseCsv} and {@link readCsvHeader}. */
export interface CsvReadOptions {
  /** Name used in error messages; defaults to the path (readCsv) or "<input>" (parseCsv). */
  file?: string;
  /** Refuse inputs larger than this many bytes (default 8 GiB). */
  maxBytes?: number;
  /** Bytes read per step (default 1 MiB); tiny values exercise the chunk-boundary code in tests. */
  chunkBytes?: number;
  /** Columns kept as their text, like read_csv's `dtype={name: str}` (missing-value tokens still become null). */
  text?: readonly string[];
  /**
   * Most fields of one record: the header's names, or the first data row's fields when pandas
   * takes the extra ones as an index (default 100,000; competition files have at most about a
   * thousand columns).
   */
  maxColumns?: number;
  /** Most cells, data rows times fields per row (default 1,000,000,000: 8 GB as float64). */
  maxCells?: number;
  /** Longest field, in bytes of the input including its quotes (default 256 MiB). */
  maxFieldBytes?: number;
  /**
   * Most missing fields pandas may add to rows shorter than the header, over the whole input
   * (default: the input's size in bytes, at least 4,194,304). Every other cell takes at least a
   * byte of input, a delimiter or a line end; these take none, so without a bound a short file
   * could ask for any number of cells.
   */
  maxPaddedFields?: number;
}

/** Limits that switch off the shape checks, for trusted inputs such as answers files. */
export const NO_CSV_LIMITS = Object.freeze({
  maxColumns: Infinity,
  maxCells: Infinity,
  maxFieldBytes: Infinity,
  maxPaddedFields: Infinity,
}) satisfies CsvReadOptions;

export const DEFAULT_MAX_BYTES = 8 * 1024 ** 3;
const DEFAULT_CHUNK_BYTES = 1024 * 1024;
const DEFAULT_MAX_COLUMNS = 100_000;
const DEFAULT_MAX_CELLS = 1_000_000_000;
const DEFAULT_MAX_FIELD_BYTES = 256 * 1024 * 1024;
const MIN_PADDED_FIELDS = 4 * 1024 * 1024;

/** The shape limits of one read, defaults filled in. */
export interface Limits {
  maxColumns: number;
  maxCells: number;
  maxFieldBytes: number;
  maxPaddedFields: number;
}

/** `size`: the input's size in bytes (0 when unknown), which scales the default bound on padding. */
export function resolveLimits(options: CsvReadOptions | undefined, size: number): Limits {
  return {
    maxColumns: options?.maxColumns ?? DEFAULT_MAX_COLUMNS,
    maxCells: options?.maxCells ?? DEFAULT_MAX_CELLS,
    maxFieldBytes: options?.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES,
    maxPaddedFields: options?.maxPaddedFields ?? Math.max(MIN_PADDED_FIELDS, size),
  };
}

/** Bytes read per step: the option, at least 1, or 1 MiB. */
export function chunkOption(options: CsvReadOptions | undefined): number {
  return Math.max(1, Math.floor(options?.chunkBytes ?? DEFAULT_CHUNK_BYTES));
}

/** A refusal of an input whose shape would cost more time or memory than any real file needs. */
export function tooLarge(file: string, what: string, limit: number, line: number | undefined): CsvParseError {
  return new CsvParseError(`${file}: too large to grade: ${what} (the limit is ${limit})`, file, line);
}
