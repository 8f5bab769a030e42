import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { formatCsvChunks } from "../../io/csv-write.js";
import { ParquetReader, ParquetWriter, takeValues, type ParquetField, type ParquetValues } from "../../io/parquet.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const LABELS = ["azimuth", "zenith"];

/**
 * Upstream's split: the batches of Kaggle's train_meta.parquet are divided 90/10 (random_state 0)
 * into new train and test batches. Each side's event rows become public/train_meta.parquet and
 * public/test_meta.parquet (the latter without the two angles, which go to private/test.csv);
 * the sample submission predicts 1 for both angles; pulse files are copied per batch.
 *
 * The two Parquet tables hold the same rows, columns and types as upstream's, in a fixed
 * uncompressed layout (see README.md): upstream's fastparquet bytes cannot be reproduced.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  const metaFile = path.join(ctx.raw, "train_meta.parquet");
  const reader = await ParquetReader.open(metaFile);
  try {
    const batches = await batchOrder(reader, metaFile);
    const { train, test } = trainTestSplitIndices(batches.length, { testSize: 0.1, randomState: 0 });
    const trainBatches = new Set(train.map((i) => batches[i]));
    const testBatches = new Set(test.map((i) => batches[i]));
    await writeSides(ctx, reader, trainBatches, testBatches, metaFile);
    copyPulseFiles(ctx, trainBatches, testBatches);
  } finally {
    await reader.close();
  }
  const geometry = path.join(ctx.raw, "sensor_geometry.csv");
  if (!fs.existsSync(geometry)) throw new UserError(`${geometry} is missing`);
  fs.copyFileSync(geometry, path.join(ctx.public, "sensor_geometry.csv"));
}

/** Data columns: pandas' index columns (if the file stored any) are not part of the frame. */
function dataFields(reader: ParquetReader): ParquetField[] {
  return reader.fields.filter((f) => !reader.indexColumns.includes(f.name));
}

function batchColumn(values: ParquetValues | undefined, file: string): BigInt64Array | Int32Array {
  if (!values || (values.type !== "int64" && values.type !== "int32")) throw new UserError(`${file}: column "batch_id" should hold integers`);
  if (values.nulls) throw new UserError(`${file}: column "batch_id" has missing values`);
  return values.values;
}

/** Distinct batch ids in order of first appearance (pandas `unique`); only batch_id is decoded. */
async function batchOrder(reader: ParquetReader, file: string): Promise<bigint[]> {
  const seen = new Set<bigint>();
  for await (const part of reader.parts(["batch_id"])) {
    for (const b of batchColumn(part.columns.get("batch_id"), file)) seen.add(BigInt(b));
  }
  if (seen.size === 0) throw new UserError(`${file}: no events`);
  return [...seen];
}

/** Stream each part's rows to the side their batch went to, keeping the original order. */
async function writeSides(ctx: UpstreamPrepareContext, reader: ParquetReader, trainBatches: Set<bigint>, testBatches: Set<bigint>, file: string): Promise<void> {
  const fields = dataFields(reader);
  for (const need of ["batch_id", "event_id", ...LABELS]) {
    if (!fields.some((f) => f.name === need)) throw new UserError(`${file}: no column "${need}" (columns: ${fields.map((f) => f.name).join(", ")})`);
  }
  const plain = (fs: ParquetField[]): ParquetField[] => fs.map((f) => ({ ...f, optional: false }));
  const unlabelled = fields.filter((f) => !LABELS.includes(f.name));
  const trainOut = new ParquetWriter(path.join(ctx.public, "train_meta.parquet"), plain(fields));
  const testOut = new ParquetWriter(path.join(ctx.public, "test_meta.parquet"), plain(unlabelled));
  const answers = new CsvStream(path.join(ctx.private, "test.csv"));
  const sample = new CsvStream(path.join(ctx.public, "sample_submission.csv"));
  let done = false;
  try {
    for await (const { columns: cols } of reader.parts(fields.map((f) => f.name))) {
      for (const f of fields) checkNoNulls(cols.get(f.name)!, f, file);
      const batch = batchColumn(cols.get("batch_id"), file);
      const trainRows: number[] = [];
      const testRows: number[] = [];
      batch.forEach((b, i) => {
        const id = BigInt(b);
        if (trainBatches.has(id)) trainRows.push(i);
        else if (testBatches.has(id)) testRows.push(i);
      });
      trainOut.append(fields.map((f) => takeValues(cols.get(f.name)!, trainRows)));
      testOut.append(unlabelled.map((f) => takeValues(cols.get(f.name)!, testRows)));
      const event = csvColumn(takeValues(cols.get("event_id")!, testRows), `${file} column "event_id"`);
      const [azimuth, zenith] = LABELS.map((l) => csvColumn(takeValues(cols.get(l)!, testRows), `${file} column "${l}"`));
      answers.write(makeTable([["event_id", event], ["azimuth", azimuth], ["zenith", zenith]]));
      const ones: Column = { kind: "int", values: new Float64Array(testRows.length).fill(1) };
      sample.write(makeTable([["event_id", event], ["azimuth", ones], ["zenith", ones]]));
    }
    trainOut.close();
    testOut.close();
    done = true;
  } finally {
    // A half-written table must not look finished; the CSVs sit in the scratch folder prepare discards.
    if (!done) {
      trainOut.abort();
      testOut.abort();
    }
    answers.close();
    sample.close();
  }
}

/**
 * pandas would turn a numeric column with gaps into float64 (and fastparquet would then store
 * doubles); rather than guess at that, gaps outside float columns are refused. Float gaps are
 * NaN in pandas, which is what the reader's zeros are replaced by here.
 */
function checkNoNulls(v: ParquetValues, f: ParquetField, file: string): void {
  if (!v.nulls) return;
  if (v.type === "double" || v.type === "float") {
    v.nulls.forEach((isNull, i) => {
      if (isNull) v.values[i] = NaN;
    });
    v.nulls = null;
    return;
  }
  throw new UserError(`${file}: column "${f.name}" (${f.type}) has missing values; only float columns may have gaps`);
}

/** A Parquet column as a table column for to_csv. */
function csvColumn(v: ParquetValues, where: string): Column {
  switch (v.type) {
    case "int64":
      return { kind: "bigint", values: Array.from(v.values) };
    case "int32":
      return { kind: "int", values: Float64Array.from(v.values) };
    case "double":
      return { kind: "float", values: Float64Array.from(v.values) };
    case "float":
      // pandas writes float32 cells with numpy's shortest float32 digits; nothing here needs them.
      throw new UserError(`${where}: float32 columns are not supported in the CSV outputs`);
    case "boolean":
      return { kind: "bool", values: v.values };
    case "string":
      return { kind: "string", values: v.values };
  }
}

/** A CSV written table by table with one header, as one to_csv of all the rows would be. */
class CsvStream {
  private readonly fd: number;
  private wroteHeader = false;

  constructor(file: string) {
    this.fd = fs.openSync(file, "w");
  }

  write(t: ReturnType<typeof makeTable>): void {
    let first = true;
    for (let piece of formatCsvChunks(t)) {
      if (first && this.wroteHeader) piece = piece.slice(piece.indexOf("\n") + 1);
      first = false;
      fs.writeSync(this.fd, piece);
    }
    this.wroteHeader = true;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** Pulse files raw/train/batch_<n>.parquet go to public/train or public/test by batch; others stay. */
function copyPulseFiles(ctx: UpstreamPrepareContext, trainBatches: Set<bigint>, testBatches: Set<bigint>): void {
  const src = path.join(ctx.raw, "train");
  const names = fs.existsSync(src) ? fs.readdirSync(src).filter((n) => n.endsWith(".parquet")).sort() : [];
  for (const folder of ["train", "test"]) fs.mkdirSync(path.join(ctx.public, folder), { recursive: true });
  for (const name of names) {
    if (!fs.statSync(path.join(src, name)).isFile()) continue;
    const tail = name.slice(0, -".parquet".length).split("_").pop()!;
    // Python's int() of the part after the last underscore; anything else stops upstream too.
    if (!/^\s*[+-]?\d+(_\d+)*\s*$/.test(tail)) throw new UserError(`${path.join(src, name)}: expected a name like batch_1.parquet`);
    const id = BigInt(tail.trim().replace(/_/g, ""));
    const dest = trainBatches.has(id) ? "train" : testBatches.has(id) ? "test" : null;
    if (dest) fs.copyFileSync(path.join(src, name), path.join(ctx.public, dest, name));
  }
}

/** Written in our fixed Parquet layout, not by fastparquet: same table, different bytes (see README.md). */
export const unverifiable = ["public/train_meta.parquet", "public/test_meta.parquet"];
