/**
 * MLAgentBench's split of the AMP Parkinson's data: two patients drawn with Python's
 * `random.seed(42); random.sample(patients, 2)` become the test set, served through a mock of
 * Kaggle's time-series API from example_test_files/; their future UPDRS ratings are the answers.
 */
import fs from "node:fs";
import path from "node:path";
import { makeTable, type Column, type Table } from "../../../core/table.js";
import { readCsv } from "../../../io/csv-read.js";
import { writeCsv } from "../../../io/csv-write.js";
import { column, takeRows } from "../../../prepare/frame.js";
import { PythonRandom } from "../../../rng/python-random.js";
import { rawFile, textCells } from "../kaggle-data.js";

/** Months ahead for which ratings are forecast. */
export const HORIZONS = [0, 6, 12, 24] as const;
/** Forecasts whose target month lies beyond this are not asked for. */
const LAST_MONTH = 108;

function read(raw: string, name: string): Table {
  const file = rawFile(raw, name);
  return readCsv(file, { file });
}

function rowsWhere(t: Table, name: string, where: string, keep: (id: string) => boolean): Table {
  const ids = textCells(column(t, name, where));
  const rows: number[] = [];
  for (let i = 0; i < ids.length; i++) if (ids[i] !== null && keep(ids[i]!)) rows.push(i);
  return takeRows(t, rows);
}

/** Unique values of a column in order of first appearance (pandas `unique`). */
function uniqueInOrder(values: readonly (string | null)[]): string[] {
  const seen = new Set<string>();
  for (const v of values) if (v !== null) seen.add(v);
  return [...seen];
}

function intColumn(values: number[]): Column {
  return { kind: "int", values: Float64Array.from(values) };
}

function textColumn(values: string[]): Column {
  return { kind: "string", values };
}

/** The two test patients upstream draws from the clinical data's patients (in order of appearance). */
export function testPatients(clinicalPatientIds: readonly (string | null)[]): string[] {
  return new PythonRandom(42).sample(uniqueInOrder(clinicalPatientIds), 2);
}

/** Split the extracted competition in `raw` into `pub` (training files and example_test_files/) and `priv` (answer.csv). */
export function splitParkinsons(raw: string, pub: string, priv: string): void {
  const proteins = read(raw, "train_proteins.csv");
  const clinical = read(raw, "train_clinical_data.csv");
  const peptides = read(raw, "train_peptides.csv");
  const supplemental = read(raw, "supplemental_clinical_data.csv");

  const clinicalIds = textCells(column(clinical, "patient_id", "train_clinical_data.csv"));
  const test = new Set(testPatients(clinicalIds));
  const train = new Set(uniqueInOrder(clinicalIds).filter((id) => !test.has(id)));
  const isTrain = (id: string) => train.has(id);
  const isTest = (id: string) => test.has(id);

  writeCsv(path.join(pub, "train_proteins.csv"), rowsWhere(proteins, "patient_id", "train_proteins.csv", isTrain));
  writeCsv(path.join(pub, "train_clinical_data.csv"), rowsWhere(clinical, "patient_id", "train_clinical_data.csv", isTrain));
  writeCsv(path.join(pub, "train_peptides.csv"), rowsWhere(peptides, "patient_id", "train_peptides.csv", isTrain));
  // Supplemental patients absent from the clinical data are in neither set, so they are dropped, as upstream does.
  writeCsv(path.join(pub, "supplemental_clinical_data.csv"), rowsWhere(supplemental, "patient_id", "supplemental_clinical_data.csv", isTrain));

  const examples = path.join(pub, "example_test_files");
  fs.mkdirSync(examples, { recursive: true });
  writeCsv(path.join(examples, "test_proteins.csv"), rowsWhere(proteins, "patient_id", "train_proteins.csv", isTest));
  writeCsv(path.join(examples, "test_peptides.csv"), rowsWhere(peptides, "patient_id", "train_peptides.csv", isTest));
  const testClinical = rowsWhere(clinical, "patient_id", "train_clinical_data.csv", isTest);
  writeTestFiles(testClinical, examples, priv);
}

function writeTestFiles(testClinical: Table, examples: string, priv: string): void {
  const where = "train_clinical_data.csv";
  const n = testClinical.rowCount;
  const visitIds = textCells(column(testClinical, "visit_id", where));
  const patients = textCells(column(testClinical, "patient_id", where));
  const monthCol = column(testClinical, "visit_month", where);
  const monthText = textCells(monthCol);
  const months = Array.from({ length: n }, (_, i) => Math.trunc(Number(monthText[i])));
  const updrs = [1, 2, 3, 4].map((l) => column(testClinical, `updrs_${l}`, where));
  const updrsText = updrs.map((c) => textCells(c));
  // upstream drops every forecast row with a missing cell anywhere in the visit it was made from.
  const cells = testClinical.columns.map((c) => textCells(testClinical.data.get(c)!));
  const complete = Array.from({ length: n }, (_, i) => cells.every((col) => col[i] !== null));
  const rowOfVisit = new Map<string, number>();
  for (let i = 0; i < n; i++) if (visitIds[i] !== null) rowOfVisit.set(visitIds[i]!, i);

  // test.csv: every visit once per UPDRS part, parts outermost (pandas concat of four copies).
  const test = { visit: [] as string[], patient: [] as number[], month: [] as number[], rowId: [] as string[], part: [] as string[] };
  for (let level = 1; level <= 4; level++) {
    for (let i = 0; i < n; i++) {
      test.visit.push(visitIds[i]!);
      test.patient.push(Number(patients[i]));
      test.month.push(months[i]);
      test.rowId.push(`${patients[i]}_${months[i]}_updrs_${level}`);
      test.part.push(`updrs_${level}`);
    }
  }
  writeCsv(
    path.join(examples, "test.csv"),
    makeTable([
      ["visit_id", textColumn(test.visit)],
      ["patient_id", intColumn(test.patient)],
      ["visit_month", intColumn(test.month)],
      ["row_id", textColumn(test.rowId)],
      ["updrs_test", textColumn(test.part)],
    ]),
  );

  // Forecasts: horizons outermost, then parts, then visits; a rating is the part's value at the target visit.
  const ids: string[] = [];
  const ratings: number[] = [];
  const forecastMonths: number[] = [];
  let anyMissingRating = false;
  for (const wait of HORIZONS) {
    for (let level = 1; level <= 4; level++) {
      for (let i = 0; i < n; i++) {
        if (months[i] + wait > LAST_MONTH) continue;
        const target = rowOfVisit.get(`${patients[i]}_${months[i] + wait}`);
        const rating = target === undefined ? null : Number(updrsText[level - 1][target] ?? Number.NaN);
        const missing = rating === null || Number.isNaN(rating);
        if (missing) anyMissingRating = true;
        if (missing || !complete[i]) continue;
        ids.push(`${patients[i]}_${months[i]}_updrs_${level}_plus_${wait}_months`);
        ratings.push(rating);
        forecastMonths.push(months[i]);
      }
    }
  }
  // pandas keeps the ratings as int64 only when every part is an int column and no lookup came back empty.
  const asInts = !anyMissingRating && updrs.every((c) => c.kind === "int");
  const ratingColumn: Column = asInts ? intColumn(ratings) : { kind: "float", values: Float64Array.from(ratings) };
  writeCsv(
    path.join(priv, "answer.csv"),
    makeTable([
      ["prediction_id", textColumn(ids)],
      ["rating", ratingColumn],
      ["visit_month", intColumn(forecastMonths)],
    ]),
  );
  writeCsv(
    path.join(examples, "sample_submission.csv"),
    makeTable([
      ["prediction_id", textColumn(ids)],
      ["rating", intColumn(ids.map(() => 0))],
      ["visit_month", intColumn(forecastMonths)],
    ]),
  );
}
