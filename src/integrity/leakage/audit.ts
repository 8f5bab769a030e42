/** The leakage audit of prepared competitions: do the public files give away the private answers? */
import fs from "node:fs";
import path from "node:path";
import type { Competition } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { competitionPaths } from "../../core/paths.js";
import type { Table } from "../../core/table.js";
import { getCompetition } from "../../competitions/registry.js";
import { readCsv, readCsvHeader } from "../../io/csv-read.js";
import { alignOnId, cellKey, compareColumn, describeTarget } from "./columns.js";
import { checkFiles, walkFiles, type FileEntry } from "./files.js";
import { duplicateRows, idOverlap, indexTestRows, type TestRowIndex } from "./rows.js";
import { resolveOptions, type LeakageChecked, type LeakageFinding, type LeakageOptions, type LeakageReport, type ResolvedOptions } from "./types.js";

const SEVERITY_ORDER = { leak: 0, warning: 1, info: 2 } as const;

/**
 * Audit one prepared competition under `dataDir`: whole-file copies of private files in
 * public/, public columns that reveal a target on the answer rows, answer ids in train files,
 * and feature rows shared by train and test files. Each public CSV is read once; throws a
 * UserError when the competition is not prepared there.
 */
export function auditCompetition(competition: Competition, dataDir: string, options: LeakageOptions = {}): LeakageReport {
  const opts = resolveOptions(options);
  const p = competitionPaths(dataDir, competition.id);
  for (const dir of [p.public, p.private]) {
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
      throw new UserError(`${competition.id} is not prepared in ${dataDir}: ${dir} is missing (run \`mlebench prepare -c ${competition.id}\`)`);
    }
  }
  const privateFiles = walkFiles(p.private);
  const publicFiles = walkFiles(p.public);
  const files = checkFiles(privateFiles, publicFiles, opts);
  const findings: LeakageFinding[] = [...files.findings];
  const checked: LeakageChecked = {
    publicFiles: publicFiles.length,
    privateFiles: privateFiles.length,
    filesHashed: files.hashed,
    answers: competition.answers,
    answerRows: null,
    idColumn: null,
    targets: [],
    trainFiles: [],
    testFiles: [],
    csvFiles: [],
    skipped: [],
  };
  const finish = (): LeakageReport => {
    findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
    return { competition: competition.id, leaks: findings.some((f) => f.severity === "leak"), findings, checked };
  };

  const answersPath = path.join(p.private, competition.answers);
  if (!fs.existsSync(answersPath)) throw new UserError(`${competition.id}: the answers file ${answersPath} is missing; prepare the competition again`);
  if (!isCsv(competition.answers)) {
    findings.push(notChecked(`the answers (${competition.answers}) are not a CSV file: only whole files were compared`));
    return finish();
  }
  const answers = readCsv(answersPath);
  checked.answerRows = answers.rowCount;
  const sampleHeader = readSampleHeader(p.public, competition.sampleSubmission);
  const idColumn = chooseIdColumn(competition, answers, sampleHeader, options.idColumn, answersPath);
  checked.idColumn = idColumn;
  const targets = chooseTargets(answers, idColumn, sampleHeader, options.targets, answersPath).map((name) =>
    describeTarget(name, answers.data.get(name)!, opts.maxClasses),
  );
  checked.targets = targets.map((t) => ({ name: t.name, kind: t.kind, distinct: t.distinct }));

  const answerIdCol = answers.data.get(idColumn)!;
  const answerIds = Array.from({ length: answers.rowCount }, (_, i) => cellKey(answerIdCol, i));
  const answerIndex = new Map<string, number>();
  for (let i = 0; i < answerIds.length; i++) if (!answerIndex.has(answerIds[i])) answerIndex.set(answerIds[i], i);
  if (answerIndex.size < answers.rowCount) {
    findings.push(
      notChecked(`${answers.rowCount - answerIndex.size} answer rows repeat an earlier ${idColumn}: columns were compared with the first answer row of each id only`),
    );
  }

  const csvs = publicFiles.filter((f) => isCsv(f.rel));
  const byRel = new Map(csvs.map((f) => [f.rel, f]));
  const pick = (given: readonly string[] | undefined, layout: string | undefined, pattern: RegExp, what: string): FileEntry[] => {
    if (given) {
      return given.map((rel) => {
        const f = byRel.get(rel);
        if (!f) throw new UserError(`${competition.id}: ${what} file ${rel} is not a CSV under ${p.public}`);
        return f;
      });
    }
    if (layout && byRel.has(layout)) return [byRel.get(layout)!];
    return csvs.filter((f) => pattern.test(path.posix.basename(f.rel)) && f.rel !== competition.sampleSubmission);
  };
  const testFiles = pick(options.testFiles, competition.offline?.layout.test, /test/i, "test");
  const trainFiles = pick(options.trainFiles, competition.offline?.layout.train, /train/i, "train").filter((f) => !testFiles.includes(f));
  checked.testFiles = testFiles.map((f) => f.rel);
  checked.trainFiles = trainFiles.map((f) => f.rel);

  const load = (f: FileEntry): Table | null => {
    if (f.size > opts.maxCsvBytes) {
      checked.skipped.push({ file: f.rel, reason: `${f.size} bytes, more than the limit of ${opts.maxCsvBytes}` });
      return null;
    }
    try {
      return readCsv(f.abs, { file: `public/${f.rel}` });
    } catch (err) {
      checked.skipped.push({ file: f.rel, reason: (err as Error).message });
      return null;
    }
  };
  const compareTable = (f: FileEntry, table: Table) => {
    const idCol = table.data.get(idColumn);
    const al = idCol ? alignOnId(idCol, answerIndex) : { publicRows: new Int32Array(0), answerRows: new Int32Array(0) };
    const compared = al.publicRows.length >= opts.minRows ? table.columns.filter((c) => c !== idColumn) : [];
    for (const column of compared) {
      for (const t of targets) {
        const found = compareColumn(table.data.get(column)!, { file: f.rel, column, answerIds }, al, t, opts);
        if (found) findings.push(found);
      }
    }
    checked.csvFiles.push({ file: f.rel, rows: table.rowCount, matchedRows: al.publicRows.length, columnsCompared: compared.length });
  };

  // Test files first: their row hashes are kept per train file so every train file is read once.
  const indexes = new Map<string, TestRowIndex[]>();
  const excluded = new Set([idColumn, ...targets.map((t) => t.name)]);
  for (const f of testFiles) {
    const table = load(f);
    if (!table) continue;
    compareTable(f, table);
    for (const r of trainFiles) {
      let header: string[];
      try {
        header = readCsvHeader(r.abs, { file: `public/${r.rel}` });
      } catch {
        continue; // reported as skipped when the train file itself is read
      }
      const features = table.columns.filter((c) => !excluded.has(c) && header.includes(c));
      if (features.length === 0) continue;
      const list = indexes.get(r.rel) ?? [];
      list.push(indexTestRows(f.rel, table, features, table.data.has(idColumn) ? idColumn : null));
      indexes.set(r.rel, list);
    }
  }
  const isTest = new Set(testFiles.map((f) => f.rel));
  const isTrain = new Set(trainFiles.map((f) => f.rel));
  for (const f of csvs) {
    if (isTest.has(f.rel)) continue;
    const table = load(f);
    if (!table) continue;
    compareTable(f, table);
    if (!isTrain.has(f.rel)) continue;
    const overlap = idOverlap(f.rel, table, idColumn, answerIndex, targets, opts);
    if (overlap) findings.push(overlap);
    for (const index of indexes.get(f.rel) ?? []) {
      const dup = duplicateRows(f.rel, table, index, table.data.has(idColumn) ? idColumn : null, opts);
      if (dup) findings.push(dup);
    }
  }
  return finish();
}

/** Result of {@link auditMany}: one report per audited competition, and those that could not be audited. */
export interface AuditManyResult {
  reports: LeakageReport[];
  failures: { competition: string; error: string }[];
}

/** Audit several competitions by id; unknown ids throw, unprepared or unreadable ones are listed as failures. */
export function auditMany(ids: readonly string[], dataDir: string, options: LeakageOptions = {}): AuditManyResult {
  const competitions = ids.map((id) => getCompetition(id));
  const result: AuditManyResult = { reports: [], failures: [] };
  for (const c of competitions) {
    try {
      result.reports.push(auditCompetition(c, dataDir, options));
    } catch (err) {
      result.failures.push({ competition: c.id, error: (err as Error).message });
    }
  }
  return result;
}

function isCsv(rel: string): boolean {
  return rel.toLowerCase().endsWith(".csv");
}

function notChecked(message: string): LeakageFinding {
  return { kind: "not-checked", severity: "info", message, examples: [] };
}

function readSampleHeader(publicDir: string, sample: string): string[] | null {
  const file = path.join(publicDir, sample);
  if (!isCsv(sample) || !fs.existsSync(file)) return null;
  try {
    return readCsvHeader(file);
  } catch {
    return null;
  }
}

/** The id column: given, else the offline layout's, else the sample submission's first, else the answers' first. */
function chooseIdColumn(c: Competition, answers: Table, sampleHeader: string[] | null, given: string | undefined, file: string): string {
  if (given !== undefined) {
    if (!answers.data.has(given)) throw new UserError(`${file} has no id column "${given}"; its columns are ${answers.columns.join(", ")}`);
    return given;
  }
  const candidates = [c.offline?.layout.id, sampleHeader?.[0], answers.columns[0]];
  const found = candidates.find((x): x is string => x !== undefined && answers.data.has(x));
  if (!found) throw new UserError(`${file} has no columns`);
  return found;
}

/** The targets: given, else the answers' columns also in the sample submission, else all but the id. */
function chooseTargets(answers: Table, idColumn: string, sampleHeader: string[] | null, given: readonly string[] | undefined, file: string): string[] {
  if (given !== undefined) {
    for (const t of given) {
      if (!answers.data.has(t)) throw new UserError(`${file} has no target column "${t}"; its columns are ${answers.columns.join(", ")}`);
    }
    return [...given];
  }
  const rest = answers.columns.filter((c) => c !== idColumn);
  const inSample = sampleHeader ? rest.filter((c) => sampleHeader.includes(c)) : [];
  return inSample.length > 0 ? inSample : rest;
}

