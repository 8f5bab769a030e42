import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { zipDirectory } from "../../io/zip-write.js";
import { comparePyStr } from "../../pycompat/pystr.js";

/** Python's `\d` on str patterns is any Unicode decimal digit, not just 0-9. */
const TRAIN_INDEX = /TRAIN\p{Nd}+/gu;

/**
 * Upstream's split of Kaggle's train2.zip by recording day: clips of the first two of its four
 * days (by the YYYYMMDD prefix) stay training clips, renumbered TRAIN0, TRAIN1, ... in name
 * order; the last two become test clips named <date>_<time>_<offset>_Test<k>.aif with their
 * label kept only in the answers. Both sides are zipped as train2.zip / test2.zip (members under
 * a train2/ or test2/ folder); the sample submission predicts 0.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  const archive = path.join(ctx.raw, "train2.zip");
  await extractArchive(archive, ctx.raw);
  const clips = path.join(ctx.raw, "train2");
  const { train, test } = splitByDay(clips, archive);

  const trainDir = path.join(ctx.public, "train2");
  fs.mkdirSync(trainDir, { recursive: true });
  train.forEach((name, idx) => copyClip(clips, name, trainDir, name.replace(TRAIN_INDEX, () => `TRAIN${idx}`)));

  const testDir = path.join(ctx.public, "test2");
  fs.mkdirSync(testDir, { recursive: true });
  const renamed: string[] = [];
  const labels = new Float64Array(test.length);
  test.forEach((name, idx) => {
    renamed.push(`${name.split("TRAIN")[0]}Test${idx}.aif`);
    labels[idx] = pathStem(name).endsWith("_1") ? 1 : 0;
    copyClip(clips, name, testDir, renamed[idx]);
  });

  await zipDirectory(trainDir, path.join(ctx.public, "train2.zip"), "train2");
  await zipDirectory(testDir, path.join(ctx.public, "test2.zip"), "test2");
  for (const dir of [trainDir, testDir, clips]) fs.rmSync(dir, { recursive: true, force: true });

  const clip: Column = { kind: "string", values: renamed };
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([["clip", clip], ["probability", { kind: "int", values: labels }]]));
  const zeros: Column = { kind: "int", values: new Float64Array(test.length) };
  writeCsv(path.join(ctx.public, "sampleSubmission.csv"), makeTable([["clip", clip], ["probability", zeros]]));
}

/** The clip names of the two earliest days and of the two latest, each list in Python's string order. */
function splitByDay(dir: string, archive: string): { train: string[]; test: string[] } {
  if (!fs.existsSync(dir)) throw new UserError(`${archive} has no train2/ folder of clips`);
  const byDay = new Map<string, string[]>();
  for (const name of fs.readdirSync(dir)) {
    const day = name.split("_")[0];
    const same = byDay.get(day);
    if (same) same.push(name);
    else byDay.set(day, [name]);
  }
  const days = [...byDay.keys()].sort(comparePyStr);
  if (days.length !== 4) {
    throw new UserError(`${archive}: expected clips from exactly 4 days (YYYYMMDD_ name prefixes), found ${days.length}: ${days.join(", ")}`);
  }
  const pick = (a: string, b: string) => [...byDay.get(a)!, ...byDay.get(b)!].sort(comparePyStr);
  return { train: pick(days[0], days[1]), test: pick(days[2], days[3]) };
}

function copyClip(fromDir: string, name: string, toDir: string, newName: string): void {
  const src = path.join(fromDir, name);
  if (!fs.statSync(src).isFile()) throw new UserError(`${src} is not a clip file (train2/ should hold only .aif clips)`);
  fs.copyFileSync(src, path.join(toDir, newName));
}

/** pathlib's `stem`: the name without its last suffix, unless the only dot leads or ends the name. */
function pathStem(name: string): string {
  const i = name.lastIndexOf(".");
  return i > 0 && i < name.length - 1 ? name.slice(0, i) : name;
}
