import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column, Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, cellText, keyReader, numericInOrder, submissionColumn } from "../../grading/columns.js";
import { KeyIndex } from "../../grading/key-index.js";
import { numpySum } from "../../metrics/sum.js";
import { haversine } from "./haversine.js";
import { numpyQuantile } from "./quantile.js";

const COLUMNS = ["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"] as const;
const DEG_TO_RAD = Math.PI / 180;
/** np.deg2rad(True): numpy computes it for a boolean array in float16. */
const ONE_DEGREE_HALF = 0.0174560546875;
/** A decimal number as text, to point at the first cell of a text column that is not one. */
const PLAIN_NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** Submitted coordinates in radians, with cos() of each as numpy would compute it. */
interface Radians {
  values: Float64Array;
  cos(i: number): number;
}

/**
 * A coordinate column in radians, as np.deg2rad gives it. Numbers convert in float64; a
 * True/False column converts in float16 (numpy's smallest float that holds a boolean), whose
 * cosines of 0 and 1 degree both round to exactly 1. Text cannot be converted and is refused
 * (upstream fails with a TypeError there).
 */
function radians(col: Column, name: string): Radians {
  const n = col.values.length;
  const values = new Float64Array(n);
  if (col.kind === "bool") {
    for (let i = 0; i < n; i++) values[i] = col.values[i] ? ONE_DEGREE_HALF : 0;
    return { values, cos: () => 1 };
  }
  if (col.kind === "string" || col.kind === "object") {
    const row =
      col.kind === "string"
        ? col.values.findIndex((v) => v !== null && !PLAIN_NUMBER.test(v))
        : col.values.findIndex((v) => v !== null);
    const where = row >= 0 ? `data row ${row + 1} holds ${cellText(col.values[row])}` : "it holds text";
    throw new InvalidSubmissionError(`Column "${name}" must hold numbers (degrees), but ${where}.`);
  }
  const degrees = numericInOrder(col, null, name);
  for (let i = 0; i < n; i++) values[i] = degrees[i] * DEG_TO_RAD;
  return { values, cos: (i) => Math.cos(values[i]) };
}

/**
 * Mean over trips (phones on a drive) of the average of the 50th and 95th percentiles of the
 * horizontal error in metres. A missing or infinite coordinate makes the score NaN, as upstream.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  for (const c of COLUMNS) answersColumn(ans, c);
  const cols = COLUMNS.map((c) => submissionColumn(submission, c));
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; ` +
        `submit one row per row of the sample submission.`,
    );
  }
  const subTrip = cols[0];
  const ansTrip = ans.data.get("tripId")!;
  const lat1 = radians(cols[2], "LatitudeDegrees");
  const lng1 = radians(cols[3], "LongitudeDegrees");
  const lat2 = numericInOrder(ans.data.get("LatitudeDegrees")!, null, "LatitudeDegrees");
  const lng2 = numericInOrder(ans.data.get("LongitudeDegrees")!, null, "LongitudeDegrees");

  const ansKey = keyReader(ansTrip);
  const subKey = keyReader(subTrip);
  const ansIndex = new KeyIndex(ans.rowCount, ansKey);
  const subIndex = new KeyIndex(submission.rowCount, subKey);
  const tripScores: number[] = [];
  for (let first = 0; first < ans.rowCount; first++) {
    const key = ansKey(first);
    if (key === undefined || ansIndex.first(key) !== first) continue;
    const ansRows: number[] = [];
    for (let r = first; r >= 0; r = ansIndex.next(r)) ansRows.push(r);
    const subRows: number[] = [];
    for (let r = subIndex.first(key); r >= 0; r = subIndex.next(r)) subRows.push(r);
    if (subRows.length !== ansRows.length) {
      throw new InvalidSubmissionError(
        `tripId ${cellText(key)} has ${subRows.length} rows in the submission but ${ansRows.length} in the answers; ` +
          `submit one row per row of the sample submission (same tripId values).`,
      );
    }
    // Upstream pairs a trip's rows by position, never comparing UnixTimeMillis: each trip's rows
    // must come in the sample submission's order, and a wrong timestamp changes nothing.
    const distances = new Float64Array(ansRows.length);
    for (let k = 0; k < ansRows.length; k++) {
      const s = subRows[k];
      const a = ansRows[k];
      distances[k] = haversine(lat1.values[s], lng1.values[s], lat2[a] * DEG_TO_RAD, lng2[a] * DEG_TO_RAD, lat1.cos(s));
    }
    const p50 = numpyQuantile(distances, 0.5);
    const p95 = numpyQuantile(distances, 0.95);
    tripScores.push((p50 + p95) / 2);
  }
  return numpySum(tripScores) / tripScores.length;
}
