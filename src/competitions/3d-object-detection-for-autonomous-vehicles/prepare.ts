import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { isPyJsonObject, readPyJson, writePyJson, type PyJson, type PyJsonObject } from "../../pycompat/pyjson.js";
import { takeRows, withColumn } from "../../prepare/frame.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

// Tables every split shares unchanged.
const SHARED_TABLES = ["attribute.json", "category.json", "sensor.json", "visibility.json"];
const MAP_RASTER = "map_raster_palo_alto.png";

type Side = "train" | "test";

/**
 * Upstream's split: Kaggle's train logs (drives) are divided by sklearn (random_state 0, 20% to
 * test) and every other table follows: samples by their scene (log) token, train.csv rows and
 * sample data by sample, calibrations and ego poses by the sample data that use them, scenes by
 * log, annotations and instances (train only) by sample. The test answers get a confidence of 1.0
 * in front of every box; images and lidar sweeps are copied by the side of their sample.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const data = path.join(ctx.raw, "train_data");
  const out = (side: Side, name: string) => path.join(ctx.public, `${side}_data`, name);
  for (const side of ["train", "test"] as const) fs.mkdirSync(path.join(ctx.public, `${side}_data`), { recursive: true });

  const logs = jsonRecords(path.join(data, "log.json"));
  const logIds = logs.map((l) => field(l, "token", path.join(data, "log.json")));
  const split = trainTestSplitIndices(logIds.length, { testSize: 0.2, randomState: 0 });
  const trainLogs = split.train.map((i) => logIds[i]);
  const testLogs = split.test.map((i) => logIds[i]);
  const trainLogSet = new Set(trainLogs);
  const testLogSet = new Set(testLogs);
  writePyJson(out("train", "log.json"), logs.filter((_, i) => trainLogSet.has(logIds[i])));
  writePyJson(out("test", "log.json"), logs.filter((_, i) => testLogSet.has(logIds[i])));

  const samplesFile = path.join(data, "sample.json");
  const samples = jsonRecords(samplesFile);
  const trainSamples = samples.filter((s) => trainLogSet.has(field(s, "scene_token", samplesFile)));
  const testSamples = samples.filter((s) => testLogSet.has(field(s, "scene_token", samplesFile)));
  writePyJson(out("train", "sample.json"), trainSamples);
  writePyJson(out("test", "sample.json"), testSamples);

  const { trainIds, testIds } = writeTables(ctx, trainSamples, testSamples, samplesFile);
  const sideOf = (token: string, where: string): Side => {
    if (trainIds.has(token)) return "train";
    if (testIds.has(token)) return "test";
    throw new UserError(`${where}: sample token ${token} belongs to neither the new train nor the new test samples`);
  };

  const sampleDataFile = path.join(data, "sample_data.json");
  const sampleData = bySide(jsonRecords(sampleDataFile), (d) => sideOf(field(d, "sample_token", sampleDataFile), sampleDataFile));
  writePyJson(out("train", "sample_data.json"), sampleData.train);
  writePyJson(out("test", "sample_data.json"), sampleData.test);

  for (const side of ["train", "test"] as const) {
    const maps = path.join(ctx.public, `${side}_maps`);
    fs.mkdirSync(maps, { recursive: true });
    copyRequired(path.join(ctx.raw, "train_maps", MAP_RASTER), path.join(maps, MAP_RASTER));
    for (const name of SHARED_TABLES) copyRequired(path.join(data, name), out(side, name));
  }

  writeSensorTables(data, sampleData, out);
  writeMaps(path.join(data, "map.json"), testLogs, out);

  const scenesFile = path.join(data, "scene.json");
  const scenes = bySide(jsonRecords(scenesFile), (s) => {
    const log = field(s, "log_token", scenesFile);
    if (trainLogSet.has(log)) return "train";
    if (testLogSet.has(log)) return "test";
    throw new UserError(`${scenesFile}: scene log token ${log} belongs to neither the new train nor the new test logs`);
  });
  writePyJson(out("train", "scene.json"), scenes.train);
  writePyJson(out("test", "scene.json"), scenes.test);

  writeAnnotations(data, sideOf, out);
  copySensorFiles(ctx, [...sampleData.train, ...sampleData.test], testIds, sampleDataFile);
}

/** train.csv, the answers (a confidence of 1.0 before each box) and the empty sample submission. */
function writeTables(
  ctx: UpstreamPrepareContext,
  trainSamples: PyJsonObject[],
  testSamples: PyJsonObject[],
  samplesFile: string,
): { trainIds: Set<string>; testIds: Set<string> } {
  const file = path.join(ctx.raw, "train.csv");
  const table = readCsv(file, { file });
  for (const c of ["Id", "PredictionString"]) {
    if (!table.data.has(c)) throw new UserError(`${file}: no column "${c}" (columns: ${table.columns.join(", ")})`);
  }
  const trainTokens = new Set(trainSamples.map((s) => field(s, "token", samplesFile)));
  const testTokens = new Set(testSamples.map((s) => field(s, "token", samplesFile)));
  const ids = table.data.get("Id")!;
  const rows = (tokens: Set<string>) => {
    const picked: number[] = [];
    for (let i = 0; i < table.rowCount; i++) if (tokens.has(cellText(cellAt(ids, i)))) picked.push(i);
    return picked;
  };
  const train = takeRows(table, rows(trainTokens));
  const test = takeRows(table, rows(testTokens));
  writeCsv(path.join(ctx.public, "train.csv"), train);
  const predictions = test.data.get("PredictionString")!;
  const withConfidence = Array.from({ length: test.rowCount }, (_, i) => addConfidence(cellAt(predictions, i), file));
  writeCsv(path.join(ctx.private, "test.csv"), withColumn(test, "PredictionString", { kind: "string", values: withConfidence }));
  const sample = makeTable([
    ["Id", test.data.get("Id")!],
    ["PredictionString", { kind: "string", values: new Array<string | null>(test.rowCount).fill("") }],
  ]);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
  return { trainIds: idSet(train), testIds: idSet(test) };
}

function idSet(t: Table): Set<string> {
  const ids = t.data.get("Id")!;
  return new Set(Array.from({ length: t.rowCount }, (_, i) => cellText(cellAt(ids, i))));
}

/** A cell as pandas would compare it with a token string; a missing value matches nothing. */
function cellText(v: ReturnType<typeof cellAt>): string {
  return v === null ? "\u0000missing" : String(v);
}

/** Eight tokens per box (centre, size, yaw, class), each box prefixed with "1.0". */
function addConfidence(v: ReturnType<typeof cellAt>, file: string): string {
  if (typeof v !== "string") throw new UserError(`${file}: PredictionString ${JSON.stringify(v)} is not a list of boxes`);
  const tokens = v.split(" ");
  if (tokens.length % 8 !== 0) throw new UserError(`${file}: PredictionString "${v.slice(0, 80)}" has ${tokens.length} tokens, expected 8 per box`);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += 8) out.push("1.0", ...tokens.slice(i, i + 8));
  return out.join(" ");
}

/** Calibrations (each once, in order of first use) and ego poses (one per sample datum) per side. */
function writeSensorTables(
  data: string,
  sampleData: Record<Side, PyJsonObject[]>,
  out: (side: Side, name: string) => string,
): void {
  const calFile = path.join(data, "calibrated_sensor.json");
  const poseFile = path.join(data, "ego_pose.json");
  const calibrations = byToken(jsonRecords(calFile), calFile);
  const poses = byToken(jsonRecords(poseFile), poseFile);
  const sdFile = path.join(data, "sample_data.json");
  for (const side of ["train", "test"] as const) {
    const used = new Map<string, PyJsonObject>();
    const sidePoses: PyJsonObject[] = [];
    for (const d of sampleData[side]) {
      const cal = field(d, "calibrated_sensor_token", sdFile);
      if (!used.has(cal)) used.set(cal, lookup(calibrations, cal, calFile));
      sidePoses.push(lookup(poses, field(d, "ego_pose_token", sdFile), poseFile));
    }
    writePyJson(out(side, "calibrated_sensor.json"), [...used.values()]);
    writePyJson(out(side, "ego_pose.json"), sidePoses);
  }
}

/**
 * The single map, its log list replaced. Upstream's two shallow copies share the map's dict, so
 * the later assignment (the test logs) is what both sides' files hold.
 */
function writeMaps(file: string, testLogs: string[], out: (side: Side, name: string) => string): void {
  const maps = jsonRecords(file);
  if (maps.length !== 1) throw new UserError(`${file}: expected exactly one map, found ${maps.length}`);
  const map = new Map(maps[0]);
  map.set("log_tokens", testLogs);
  writePyJson(out("train", "map.json"), [map]);
  writePyJson(out("test", "map.json"), [map]);
}

/** Train annotations and the instances they mention; the test side's are the hidden answers. */
function writeAnnotations(data: string, sideOf: (token: string, where: string) => Side, out: (side: Side, name: string) => string): void {
  const annFile = path.join(data, "sample_annotation.json");
  const annotations = bySide(jsonRecords(annFile), (a) => sideOf(field(a, "sample_token", annFile), annFile));
  writePyJson(out("train", "sample_annotation.json"), annotations.train);
  const trainInstances = new Set(annotations.train.map((a) => field(a, "instance_token", annFile)));
  const testInstances = new Set(annotations.test.map((a) => field(a, "instance_token", annFile)));
  const instFile = path.join(data, "instance.json");
  const instances = jsonRecords(instFile).filter((inst) => {
    const token = field(inst, "token", instFile);
    if (trainInstances.has(token)) return true;
    if (testInstances.has(token)) return false;
    throw new UserError(`${instFile}: instance ${token} has no annotation in either the new train or the new test samples`);
  });
  writePyJson(out("train", "instance.json"), instances);
}

/** Each camera image or lidar sweep into its sample's side, once per file name. */
function copySensorFiles(ctx: UpstreamPrepareContext, sampleData: PyJsonObject[], testIds: Set<string>, file: string): void {
  for (const dir of ["test_images", "train_images", "test_lidar", "train_lidar"]) fs.mkdirSync(path.join(ctx.public, dir), { recursive: true });
  for (const d of sampleData) {
    const name = path.posix.basename(field(d, "filename", file));
    const format = field(d, "fileformat", file);
    const kind = format === "jpeg" ? "images" : format === "bin" ? "lidar" : null;
    if (kind === null) throw new UserError(`${file}: unexpected fileformat "${format}" (expected "jpeg" or "bin")`);
    const ext = kind === "images" ? "jpeg" : "bin";
    if (!name.endsWith(ext)) throw new UserError(`${file}: file "${name}" of format ${format} should end in ${ext}`);
    const src = path.join(ctx.raw, `train_${kind}`, name);
    if (!fs.existsSync(src)) throw new UserError(`${src} is missing (listed in ${file})`);
    const side = testIds.has(field(d, "sample_token", file)) ? "test" : "train";
    const dst = path.join(ctx.public, `${side}_${kind}`, name);
    // A file listed twice is copied once, as upstream skips an existing destination.
    if (!fs.existsSync(dst)) fs.copyFileSync(src, dst);
  }
}

function bySide(items: PyJsonObject[], side: (x: PyJsonObject) => Side): Record<Side, PyJsonObject[]> {
  const out: Record<Side, PyJsonObject[]> = { train: [], test: [] };
  for (const x of items) out[side(x)].push(x);
  return out;
}

function byToken(items: PyJsonObject[], file: string): Map<string, PyJsonObject> {
  // Later duplicates win, as in a dict comprehension.
  return new Map(items.map((x) => [field(x, "token", file), x]));
}

function lookup(m: Map<string, PyJsonObject>, token: string, file: string): PyJsonObject {
  const v = m.get(token);
  if (v === undefined) throw new UserError(`${file}: no entry with token ${token}`);
  return v;
}

function jsonRecords(file: string): PyJsonObject[] {
  if (!fs.existsSync(file)) throw new UserError(`${file} is missing`);
  const v: PyJson = readPyJson(file);
  if (!Array.isArray(v) || !v.every((x) => x !== null && isPyJsonObject(x))) throw new UserError(`${file}: expected a JSON list of objects`);
  return v as PyJsonObject[];
}

function field(o: PyJsonObject, key: string, file: string): string {
  const v = o.get(key);
  if (typeof v !== "string") throw new UserError(`${file}: an entry has no "${key}" string`);
  return v;
}

function copyRequired(src: string, dst: string): void {
  if (!fs.existsSync(src)) throw new UserError(`${src} is missing`);
  fs.copyFileSync(src, dst);
}
