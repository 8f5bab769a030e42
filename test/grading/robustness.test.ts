import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadCompetition } from "../../src/competitions/registry.js";
import { gradeToReport, loadGradingInputs } from "../../src/grading/grade.js";
import { FIXTURES, fixtureDataDir, goldenScore, tempDir } from "../helpers/data-dir.js";

/**
 * Everything an agent might leave at submission.csv must end in a report: valid with the
 * expected score, or invalid with a reason a person can act on. Never an exception.
 */
const CACTUS = "aerial-cactus-identification";
const dataDir = fixtureDataDir([CACTUS, "spaceship-titanic"]);
const cactus = await loadCompetition(CACTUS);
const cactusInputs = loadGradingInputs(cactus, dataDir);
const base = fs.readFileSync(path.join(FIXTURES, CACTUS, "noisy.csv"), "utf8");
const baseScore = goldenScore(CACTUS, "noisy");
const [header, ...rows] = base.trimEnd().split("\n");
const work = tempDir();

type Content = string | Buffer | ((file: string) => void);
interface Case {
  name: string;
  content: Content;
  /** A number: valid with this score; a RegExp: invalid with a reason matching it. */
  expect: number | RegExp;
  fileName?: string;
}

const withRows = (rs: string[]) => [header, ...rs].join("\n") + "\n";
const mapScores = (f: (p: string, i: number) => string) =>
  withRows(rows.map((r, i) => {
    const [id, p] = r.split(",");
    return `${id},${f(p, i)}`;
  }));

const cases: Case[] = [
  { name: "empty file", content: "", expect: /No columns to parse from file/ },
  { name: "whitespace only", content: "  \n\n \n", expect: /No columns to parse/ },
  { name: "header only", content: header + "\n", expect: /0 rows but the answers have 500/ },
  { name: "binary junk", content: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)), expect: /not (valid )?UTF-8|NUL/ },
  { name: "NUL bytes inside", content: header + "\nabc\0def,0.5\n", expect: /NUL/ },
  { name: "semicolon delimiter", content: base.replace(/,/g, ";"), expect: /must have a "id" column; found "id;has_cactus"/ },
  { name: "tab delimiter", content: base.replace(/,/g, "\t"), expect: /must have a "id" column/ },
  { name: "duplicate id rows (same count)", content: withRows([rows[0], ...rows.slice(0, -1)]), expect: /values do not match the answers.*1 answer id\(s\) are missing.*1 row\(s\) repeat an id/ },
  { name: "one id missing", content: withRows(rows.slice(1)), expect: /499 rows but the answers have 500/ },
  { name: "one extra id", content: withRows([...rows, "extra.jpg,0.5"]), expect: /501 rows but the answers have 500/ },
  { name: "unknown id replacing one", content: withRows(["zzz.jpg,0.5", ...rows.slice(1)]), expect: /values do not match the answers.*1 answer id\(s\) are missing.*1 id\(s\) are not in the answers \(e\.g\. "zzz\.jpg"\)/ },
  { name: "NaN prediction", content: mapScores((p, i) => (i === 7 ? "nan" : p)), expect: /NaN/i },
  { name: "empty prediction", content: mapScores((p, i) => (i === 7 ? "" : p)), expect: /NaN/i },
  { name: "inf prediction", content: mapScores((p, i) => (i === 7 ? "inf" : p)), expect: /between 0 and 1.*data row 8 holds inf/ },
  { name: "text in the score column", content: mapScores((p, i) => (i === 3 ? "high" : p)), expect: /must hold numbers, but data row 4 holds "high"/ },
  { name: "negative probability", content: mapScores((p, i) => (i === 0 ? "-0.1" : p)), expect: /between 0 and 1.*data row 1 holds -0\.1/ },
  { name: "probability above one", content: mapScores((p, i) => (i === 2 ? "1.0001" : p)), expect: /data row 3 holds 1\.0001/ },
  { name: "target column missing", content: withRows(rows.map((r) => r.split(",")[0])).replace(header, "id"), expect: /must have a "has_cactus" column; found "id"/ },
  { name: "id column missing", content: "has_cactus\n" + rows.map((r) => r.split(",")[1]).join("\n") + "\n", expect: /must have a "id" column/ },
  { name: "header names padded with spaces", content: base.replace(header, "id, has_cactus"), expect: /must have a "has_cactus" column; found "id", " has_cactus"/ },
  { name: "row with too many fields", content: withRows([...rows.slice(0, 10), rows[10] + ",0.3", ...rows.slice(11)]), expect: /Expected 2 fields in line 12, saw 3/ },
  { name: "unterminated quote", content: withRows([...rows.slice(0, 5), '"abc.jpg,0.5']), expect: /EOF inside string/ },
  { name: "UTF-16 text", content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(base, "utf16le")]), expect: /UTF-8|NUL/ },
  { name: "gzip data named .csv", content: zlib.gzipSync(base), expect: /UTF-8|NUL/ },
  { name: "JSON instead of CSV", content: JSON.stringify(rows.map((r) => ({ id: r.split(",")[0] }))), expect: /must have a "id" column/ },
  { name: "directory named submission.csv", content: (f) => fs.mkdirSync(f), expect: /is not a regular file/ },
  { name: "path that does not exist", content: () => {}, expect: /does not exist/ },
  { name: "dangling symlink", content: (f) => fs.symlinkSync(path.join(work, "nowhere.csv"), f), expect: /does not exist/ },
  { name: "wrong suffix", content: base, fileName: "submission.txt", expect: /must be a CSV file with a \.csv suffix/ },
  { name: "one giant line without newline", content: "id,has_cactus\n" + "x".repeat(20_000_000), expect: /500|rows|must hold numbers/ },
  { name: "1 GB sparse file of NUL bytes", content: (f) => { fs.writeFileSync(f, header + "\n"); fs.truncateSync(f, 1 << 30); }, expect: /NUL/ },
  { name: "one 15 MB line of commas", content: ",".repeat(15 << 20), expect: /too large to grade: 15728641 columns in the header \(the limit is 100000\)$/ },
  { name: "short rows under a 100,000-column header", content: Array.from({ length: 100_000 }, (_, j) => `c${j}`).join(",") + "\n" + "x\n".repeat(7_000_000), expect: /too large to grade: 14699853 missing fields added to short rows by line 148 \(the limit is 14688890\)$/ },
  { name: "a first data row far wider than the header", content: header + "\n" + ",".repeat(15 << 20) + "\n" + rows.join("\n"), expect: /too large to grade: 15728641 fields in line 2 \(the limit is 100000\)$/ },
  { name: "a header of 7 million duplicate names", content: "id,".repeat(7_000_000) + "has_cactus\n" + rows.join("\n"), expect: /too large to grade: 7000001 columns in the header/ },
  // Accepted variations: the score must equal the plain file's.
  { name: "CRLF line endings", content: base.replace(/\n/g, "\r\n"), expect: baseScore },
  { name: "UTF-8 byte-order mark", content: "\ufeff" + base, expect: baseScore },
  { name: "quoted fields", content: base.split("\n").map((l) => (l ? l.split(",").map((c) => `"${c}"`).join(",") : l)).join("\n"), expect: baseScore },
  { name: "rows in another order", content: withRows([...rows].reverse()), expect: baseScore },
  { name: "extra unused column", content: withRows(rows.map((r) => r + ",x")).replace(header, header + ",notes"), expect: baseScore },
  { name: "scientific notation", content: mapScores((p) => Number(p).toExponential()), expect: baseScore },
  { name: "blank lines between rows", content: withRows(rows.map((r) => r + "\n")), expect: baseScore },
  { name: "no trailing newline", content: base.trimEnd(), expect: baseScore },
];

describe("grading survives anything an agent can write", () => {
  it("has at least 30 cases", () => expect(cases.length).toBeGreaterThanOrEqual(30));

  it.each(cases.map((c, i) => [c.name, c, i] as const))("%s", (_name, c, i) => {
    const dir = path.join(work, `case-${i}`);
    fs.mkdirSync(dir);
    const file = path.join(dir, c.fileName ?? "submission.csv");
    if (typeof c.content === "function") c.content(file);
    else fs.writeFileSync(file, c.content);
    const report = gradeToReport(cactus, file, cactusInputs);
    if (typeof c.expect === "number") {
      expect(report.invalid_reason).toBeNull();
      expect(report.score).toBe(c.expect);
    } else {
      expect(report.valid_submission).toBe(false);
      expect(report.score).toBeNull();
      expect(report.any_medal).toBe(false);
      expect(report.invalid_reason).toMatch(c.expect);
    }
  });
});

describe("label types in accuracy grading (spaceship-titanic)", async () => {
  const spaceship = await loadCompetition("spaceship-titanic");
  const inputs = loadGradingInputs(spaceship, dataDir);
  const noisy = fs.readFileSync(path.join(FIXTURES, "spaceship-titanic", "noisy.csv"), "utf8");
  const grade = (text: string) => {
    const f = path.join(work, `label-${Math.random().toString(36).slice(2)}.csv`);
    fs.writeFileSync(f, text);
    return gradeToReport(spaceship, f, inputs);
  };

  it("accepts lower-case true/false as booleans", () => {
    expect(grade(noisy.replace(/True/g, "true").replace(/False/g, "false")).score).toBe(goldenScore("spaceship-titanic", "noisy"));
  });

  it("accepts 1.0/0.0 floats as labels", () => {
    expect(grade(noisy.replace(/True/g, "1.0").replace(/False/g, "0.0")).score).toBe(goldenScore("spaceship-titanic", "noisy"));
  });

  it("rejects a missing label with a reason", () => {
    const lines = noisy.split("\n");
    lines[5] = lines[5].split(",")[0] + ",";
    const r = grade(lines.join("\n"));
    expect(r.valid_submission).toBe(false);
    expect(r.invalid_reason).toMatch(/\w/);
  });

  it("rejects string labels mixed with booleans", () => {
    const r = grade(noisy.replace(/True/g, "yes"));
    expect(r.valid_submission).toBe(false);
    expect(r.invalid_reason).toMatch(/Mix of label input types|string and number/i);
  });
});
