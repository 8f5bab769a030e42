import { describe, expect, it } from "vitest";
import { grade } from "../../src/competitions/hms-harmful-brain-activity-classification/grade.js";
import { parseCsv } from "../../src/io/csv-read.js";

// Golden numbers from upstream's grade.py run with Debian's pandas 1.5 / numpy 1.24.
const HEADER = "eeg_id,seizure_vote,lpd_vote,gpd_vote,lrda_vote,grda_vote,other_vote";
const ANSWERS = parseCsv(`${HEADER}\n5,1,0,0,0,0,0\n5,0,2,2,2,2,2\n7,3,0,0,0,0,0\n`);
const uniform = (ids: number[], extra = "") =>
  parseCsv(`${HEADER}${extra ? ",x" : ""}\n` + ids.map((id) => `${id}` + ",0.16666666666666666".repeat(6) + (extra ? `,${extra}` : "")).join("\n"));

describe("hms-harmful-brain-activity-classification grader", () => {
  it("leaves integer columns unclipped, so a 0 where experts voted costs infinity", () => {
    const onehot = parseCsv(`${HEADER}\n5,1,0,0,0,0,0\n5,1,0,0,0,0,0\n7,1,0,0,0,0,0\n`);
    expect(grade(onehot, ANSWERS)).toBe(Infinity);
  });

  it("validates but does not score an extra all-zero column", () => {
    expect(grade(uniform([5, 5, 7], "0.0"), ANSWERS)).toBeCloseTo(1.255280165083355, 14);
  });

  it("compares eeg_id sets, not counts, and pairs sorted rows by position", () => {
    expect(grade(uniform([5, 7, 7]), ANSWERS)).toBeCloseTo(1.255280165083355, 14);
  });

  it("names the row whose probabilities do not add up to 1", () => {
    const sub = parseCsv(`${HEADER}\n5,1,0,0,0,0,0\n5,0.5,0,0,0,0,0\n7,1,0,0,0,0,0\n`);
    expect(() => grade(sub, ANSWERS)).toThrow(/data row 2 adds up to 0\.5/);
  });
});
