/**
 * CSV input read the way upstream reads submissions and answers:
 * `pandas.read_csv(path, float_precision="round_trip")` with pandas 2.2 defaults (C engine).
 *
 * The tokenizer is a transcription of pandas' C state machine (tokenizer.c) and the dtype
 * inference follows parsers.pyx (`_convert_tokens`: int64, then uint64, float64, bool, object),
 * including its order-dependent corners, which are commented where they happen.
 *
 * It works on UTF-8 bytes, not decoded text: the file is read in chunks of 1 MiB, each checked
 * with `isUtf8`; numbers are parsed straight from the bytes (floats correctly rounded without
 * building strings) and only text cells become JavaScript strings. Records that are one line of
 * plain numbers skip the tokenizer altogether (`InferenceSink.fast`). Memory is the numeric
 * columns (8 bytes a cell) plus the strings; text columns that turn out to be text late are
 * completed by a second pass over the input rather than by keeping every cell's text.
 *
 * The parts live in ./csv/: `source.ts` (byte sources, UTF-8), `tokenizer.ts`, `drive.ts` (the
 * chunk loop), `decimal.ts` and `numbers.ts` (cell parsers), `inference.ts` (the dtype decision,
 * which the streaming splitter in src/prepare/stream-split.ts shares), `builder.ts` (a column's
 * cells), `sink.ts` and `backfill.ts` (the two passes), `names.ts`, `options.ts` and `reader.ts`.
 * This module is their public face.
 *
 * Deliberately not replicated:
 * - `low_memory` chunking: pandas infers dtypes per block of rows (2^18 rows for two columns)
 *   and concatenates the blocks, so in files with more rows than one block a column that is
 *   numeric in one block and text in another comes out as an object column mixing numbers and
 *   strings (with a DtypeWarning). The Table type cannot hold such a column; the whole column
 *   is inferred at once here, which is what pandas does with `low_memory=False`.
 * - NUL bytes: pandas silently cuts a field at a NUL byte; here it is an error naming the line.
 * - Error line numbers: pandas counts records (a quoted field's line breaks don't count); the
 *   messages quote pandas' number and add the physical line when the two differ.
 * - Integers beyond the uint64 range stay text (pandas 2.2); pandas 3 turns them into Python ints.
 * - Unbounded shapes: pandas reads a header of any width and pads any number of short rows. Here
 *   a record wider than `maxColumns`, more than `maxCells` cells, a field longer than
 *   `maxFieldBytes` or more padding than `maxPaddedFields` is refused (see CsvReadOptions), so that
 *   no input costs much more time or memory than an ordinary file of its size; NO_CSV_LIMITS
 *   lifts them for trusted files.
 *
 * Replicated although surprising: an implicit index (the first data row has more fields than the
 * header) makes pandas use the extra leading fields of every row as the index; a Table has no
 * index, so those fields are dropped and the header names label the remaining ones.
 */
import { isNa, parseBool, parseFloat64, parseInteger, BIG, INVALID, MINUS, OVERFLOW, R } from "./csv/numbers.js";
import { pandasColumnNames } from "./csv/names.js";

export { NO_CSV_LIMITS, type CsvReadOptions } from "./csv/options.js";
export { csvReadInternals, parseCsv, readCsv, readCsvHeader } from "./csv/reader.js";

/** Not API: pandas' cell parsers and header naming, for readers that stream a file instead of building a Table. */
export const csvCellParsers = {
  isNa,
  parseInteger,
  parseFloat64,
  parseBool,
  pandasColumnNames,
  /** Side results of parseInteger when it returns NaN. */
  result: R,
  INVALID,
  OVERFLOW,
  MINUS,
  BIG,
} as const;
