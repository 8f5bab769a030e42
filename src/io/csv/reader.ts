/** The in-memory reader: readCsv, parseCsv and readCsvHeader, from the tokenizer, the inference sink and the backfill pass. */
import { CsvParseError } from "../../core/errors.js";
import { makeTable, textColumn, type Column, type Table } from "../../core/table.js";
import { TextArena, TextBytesBuilder } from "../../core/text-bytes.js";
import { BackfillSink, type BackfillTarget } from "./backfill.js";
import { isBackfill, type Backfill } from "./builder.js";
import { drive } from "./drive.js";
import { pandasColumnNames } from "./names.js";
import { DEFAULT_MAX_BYTES, chunkOption, resolveLimits, type CsvReadOptions } from "./options.js";
import { InferenceSink } from "./sink.js";
import { ArraySource, FileSource, tooBig, type ByteSource } from "./source.js";
import { Tokenizer } from "./tokenizer.js";

function noColumns(file: string): CsvParseError {
  return new CsvParseError(
    `No columns to parse from file ${file}: it is empty or holds only blank lines`,
    file,
    undefined,
  );
}

interface Input {
  open: () => ByteSource;
  file: string;
  maxBytes: number;
  chunkBytes: number;
  text?: readonly string[];
  options?: CsvReadOptions;
}

function parseInput(input: Input): Table {
  const { file, maxBytes, chunkBytes } = input;
  const src = input.open();
  const limits = resolveLimits(input.options, src.size());
  const tok = new Tokenizer(file, limits, false, chunkBytes);
  const arena = new TextArena(file);
  const sink = new InferenceSink(src.size(), arena);
  drive(
    src,
    tok,
    chunkBytes,
    file,
    maxBytes,
    (b, used) => sink.consume(tok, b, used),
    csvReadInternals.fastPath ? (b, pos, n) => (sink.fastReady ? sink.fast(tok, b, pos, n) : pos) : undefined,
  );
  if (tok.header === null) throw noColumns(file);
  const names = pandasColumnNames(tok.header);
  const rows = sink.rows;
  const textNames = new Set(input.text);
  const results = names.map((name, j): Column | Backfill => {
    if (sink.cols === null) return { kind: "string", values: [] };
    const r = sink.cols[j].finish(rows);
    // A text column's cells all come from the second pass, whatever they parsed as.
    const asText = textNames.has(name) && rows > 0 && !(isBackfill(r) && r.naFilter);
    return asText ? { upto: rows, naFilter: true, tail: new TextBytesBuilder(arena) } : r;
  });
  sink.cols = null;

  const targets: BackfillTarget[] = [];
  // Per column, its target's place in `targets` (-1: none).
  const targetOf = new Int32Array(names.length).fill(-1);
  results.forEach((r, j) => {
    if (isBackfill(r) && r.upto > 0) {
      targetOf[j] = targets.length;
      targets.push({ j, upto: r.upto, naFilter: r.naFilter, out: new TextBytesBuilder(arena, r.upto) });
    }
  });
  if (targets.length > 0) {
    const back = new BackfillSink(targets);
    const tok2 = new Tokenizer(file, limits, false, chunkBytes);
    drive(input.open(), tok2, chunkBytes, file, maxBytes, (b) => {
      back.consume(tok2, b);
      return back.finished;
    });
    if (!back.finished) throw new CsvParseError(`${file} changed while it was being read`, file, undefined);
  }

  const columns = names.map((name, j): [string, Column] => {
    const r = results[j];
    if (!isBackfill(r)) return [name, r];
    const head = targetOf[j] >= 0 ? targets[targetOf[j]].out : undefined;
    return [name, textColumn(head === undefined ? r.tail.finish() : head.finish(r.tail))];
  });
  return makeTable(columns);
}

/** Not API: a switch for tests that compare the fast path with the tokenizer-only path. */
export const csvReadInternals = { fastPath: true };

/** Read a CSV file like `pandas.read_csv(path, float_precision="round_trip")` (pandas 2.2). */
export function readCsv(path: string, options?: CsvReadOptions): Table {
  const file = options?.file ?? path;
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  return parseInput({
    open: () => new FileSource(path, file, maxBytes),
    file,
    maxBytes,
    chunkBytes: chunkOption(options),
    text: options?.text,
    options,
  });
}

/** Parse CSV text or UTF-8 bytes like {@link readCsv} does a file. */
export function parseCsv(text: string | Uint8Array, options?: CsvReadOptions): Table {
  const file = options?.file ?? "<input>";
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  if (bytes.length > maxBytes) throw tooBig(file, bytes.length, maxBytes);
  return parseInput({
    open: () => new ArraySource(bytes),
    file,
    maxBytes,
    chunkBytes: chunkOption(options),
    text: options?.text,
    options,
  });
}

/** The column names `readCsv` would give the file, reading only its first record. */
export function readCsvHeader(path: string, options?: CsvReadOptions): string[] {
  const file = options?.file ?? path;
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  // Small reads: the header is normally near the start of a possibly huge file.
  const chunk = Math.min(chunkOption(options), 64 * 1024);
  const src = new FileSource(path, file, maxBytes);
  const tok = new Tokenizer(file, resolveLimits(options, src.size()), true);
  drive(src, tok, chunk, file, maxBytes, () => tok.done);
  if (tok.header === null) throw noColumns(file);
  return pandasColumnNames(tok.header);
}

