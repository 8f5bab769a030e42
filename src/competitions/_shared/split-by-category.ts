/**
 * The steps the herbarium (2020-2022) and iNaturalist 2019 preparers share: pair each annotation
 * of a COCO-style metadata file with its image, split every category into train and test on its
 * own (sklearn's train_test_split, random_state 0), then flatten the test side and shuffle it with
 * Python's random.Random(0) so categories do not come in runs; and at the end, the answers and
 * sample submission of the test ids.
 */
import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column, type Table } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { isPyJsonObject, type PyJson, type PyJsonObject } from "../../pycompat/pyjson.js";
import { PythonRandom } from "../../rng/python-random.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";
import { readMetadataJson, writeSortedPyJson, type MetadataEncoding } from "./metadata-json.js";

/** One labelled sample: an annotation and the image record it belongs to. */
export interface Sample {
  annotation: PyJsonObject;
  image: PyJsonObject;
}

/** Samples by category id, in the order categories first appear (a Python dict's order). */
export type CategoryGroups = Map<bigint, Sample[]>;

/** The top level of a metadata file, which must be a JSON object. */
export function metadataObject(v: PyJson, file: string): PyJsonObject {
  if (!isPyJsonObject(v)) throw new UserError(`${file}: expected a JSON object at the top level`);
  return v;
}

/** The list of records under `key`, each a JSON object. */
export function recordList(meta: PyJsonObject, key: string, file: string): PyJsonObject[] {
  const v = meta.get(key);
  if (!Array.isArray(v)) throw new UserError(`${file}: expected a list under "${key}"`);
  v.forEach((r, i) => {
    if (!isPyJsonObject(r)) throw new UserError(`${file}: ${key}[${i}] is not a JSON object`);
  });
  return v as PyJsonObject[];
}

// Python's == between JSON scalars: ints and floats compare by value, strings by content.
function pyEqual(a: PyJson | undefined, b: PyJson | undefined): boolean {
  if (typeof a === "bigint" && typeof b === "number") return Number.isInteger(b) && BigInt(b) === a;
  if (typeof a === "number" && typeof b === "bigint") return pyEqual(b, a);
  return (typeof a === "string" || typeof a === "bigint" || typeof a === "number") && a === b;
}

/**
 * Annotations zipped with images, position by position (Python's zip stops at the shorter list);
 * each annotation's image_id must equal its image's `imageKey`.
 */
export function pairSamples(meta: PyJsonObject, imageKey: string, file: string): Sample[] {
  const annotations = recordList(meta, "annotations", file);
  const images = recordList(meta, "images", file);
  if (annotations.length > images.length) {
    // Upstream would drop the extra annotations and then fail its final count check.
    throw new UserError(`${file}: ${annotations.length} annotations but only ${images.length} images; expected one image per annotation`);
  }
  return annotations.map((annotation, i) => {
    const image = images[i];
    const a = annotation.get("image_id");
    const b = image.get(imageKey);
    if (!pyEqual(a, b)) {
      throw new UserError(`${file}: annotations[${i}] has image_id ${String(a)} but images[${i}] has ${imageKey} ${String(b)}; expected the lists in the same order`);
    }
    return { annotation, image };
  });
}

/** A record's category_id, which must be an int (upstream formats it with `:03d`). */
export function categoryId(annotation: PyJsonObject, file: string): bigint {
  const c = annotation.get("category_id");
  if (typeof c !== "bigint") {
    throw new UserError(`${file}: annotation of image ${String(annotation.get("image_id"))} has category_id ${String(c)}; expected an integer`);
  }
  return c;
}

/** Samples grouped by category id, categories in order of first appearance. */
export function groupByCategory(samples: Sample[], file: string): CategoryGroups {
  const groups: CategoryGroups = new Map();
  for (const s of samples) {
    const c = categoryId(s.annotation, file);
    let g = groups.get(c);
    if (!g) groups.set(c, (g = []));
    g.push(s);
  }
  return groups;
}

/** How each category is divided. */
export interface SplitRule {
  /** The proportion sklearn's train_test_split puts in test. */
  testSize: number;
  /**
   * Herbarium 2020/2021 and iNaturalist: a category of one sample stays in train, one of two to
   * four samples gives its last max(1, int(n * testSize)) samples to test, and only larger ones
   * go through train_test_split. Herbarium 2022 splits every category with train_test_split.
   */
  smallCategoriesByTail: boolean;
}

function splitOne(samples: Sample[], rule: SplitRule, category: bigint, file: string): [Sample[], Sample[]] {
  const n = samples.length;
  if (rule.smallCategoriesByTail && n === 1) return [samples, []];
  if (rule.smallCategoriesByTail && n < 5) {
    const k = Math.max(1, Math.trunc(n * rule.testSize));
    return [samples.slice(0, n - k), samples.slice(n - k)];
  }
  let split;
  try {
    split = trainTestSplitIndices(n, { testSize: rule.testSize, randomState: 0 });
  } catch (e) {
    throw new UserError(`${file}: category ${category} has ${n} sample(s), too few to split with test_size=${rule.testSize} (${(e as Error).message})`);
  }
  return [split.train.map((i) => samples[i]), split.test.map((i) => samples[i])];
}

/** Each category split into train and test on its own; both maps keep the category order. */
export function splitByCategory(groups: CategoryGroups, rule: SplitRule, file: string): { train: CategoryGroups; test: CategoryGroups } {
  const train: CategoryGroups = new Map();
  const test: CategoryGroups = new Map();
  for (const [c, samples] of groups) {
    const [tr, te] = splitOne(samples, rule, c, file);
    if (!rule.smallCategoriesByTail && (tr.length === 0 || te.length === 0)) {
      throw new UserError(`${file}: category ${c} has ${samples.length} sample(s); expected enough for both train and test`);
    }
    train.set(c, tr);
    test.set(c, te);
  }
  return { train, test };
}

/** A metadata file split by category: the top-level object and both sides of the split. */
export interface CategorySplit {
  meta: PyJsonObject;
  train: CategoryGroups;
  test: CategoryGroups;
}

/** Upstream's first steps: json.load the metadata, pair annotations with images by `imageKey`, split each category by `rule`. */
export function readCategorySplit(file: string, encoding: MetadataEncoding, imageKey: string, rule: SplitRule): CategorySplit {
  const meta = metadataObject(readMetadataJson(file, encoding), file);
  const groups = groupByCategory(pairSamples(meta, imageKey, file), file);
  return { meta, ...splitByCategory(groups, rule, file) };
}

/** All test samples, category after category, then shuffled by random.Random(0). */
export function shuffledTestSamples(test: CategoryGroups, file: string): Sample[] {
  const all = [...test.values()].flat();
  if (all.length === 0) throw new UserError(`${file}: no category has enough samples to give any to the test set`);
  return new PythonRandom(0).shuffle(all);
}

/** Python's f"{n:0{width}d}": zero-padded after the sign. */
export function pyZeroPad(n: bigint | number, width: number): string {
  const s = String(n);
  return s.startsWith("-") ? "-" + s.slice(1).padStart(width - 1, "0") : s.padStart(width, "0");
}

// Python's floor division and modulo on ints (both round towards minus infinity).
function floorDivMod(a: bigint, b: bigint): [bigint, bigint] {
  let q = a / b;
  let r = a % b;
  if (r !== 0n && r < 0n !== b < 0n) {
    q -= 1n;
    r += b;
  }
  return [q, r];
}

/** The two-level folder of a category, f"{c // 100:03d}/{c % 100:02d}" (15504 gives "155/04"). */
export function categorySubdir(c: bigint): string {
  const [q, r] = floorDivMod(c, 100n);
  return `${pyZeroPad(q, 3)}/${pyZeroPad(r, 2)}`;
}

/** A record's file_name as a relative path that stays inside the folder it is joined to. */
export function relativeFileName(image: PyJsonObject, file: string): string {
  const name = image.get("file_name");
  if (typeof name !== "string" || name === "") {
    throw new UserError(`${file}: image ${String(image.get("id") ?? image.get("image_id"))} has file_name ${String(name)}; expected a relative path`);
  }
  const parts = name.split("/");
  if (name.startsWith("/") || parts.includes("..")) {
    throw new UserError(`${file}: image file_name "${name}" would point outside the image folder`);
  }
  return name;
}

/** Copy one image, creating the destination folder; a missing source names the metadata that listed it. */
export function copyImage(src: string, dst: string, listedIn: string): void {
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  try {
    fs.copyFileSync(src, dst);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`${src} is missing (listed in ${listedIn})`);
    throw e;
  }
}

/** A copy of the top-level metadata with some keys replaced or added (Python's dict.copy() + update()). */
export function withEntries(meta: PyJsonObject, entries: Record<string, PyJson>): PyJsonObject {
  const out = new Map(meta);
  for (const [k, v] of Object.entries(entries)) out.set(k, v);
  return out;
}

/**
 * The public test metadata: the train metadata without `drop` (each must be present, as Python's
 * `del` demands) and without annotations, holding `images`; upstream insists that leaves exactly
 * images, info and licenses.
 */
export function publicTestMetadata(meta: PyJsonObject, drop: string[], images: PyJsonObject[], file: string): PyJsonObject {
  const out = new Map(meta);
  for (const k of drop) {
    if (!out.delete(k)) throw new UserError(`${file}: no "${k}" key at the top level; expected one`);
  }
  out.delete("annotations");
  out.set("images", images);
  const keys = [...out.keys()].sort();
  if (keys.join(",") !== "images,info,licenses") {
    throw new UserError(`${file}: top-level keys ${[...meta.keys()].join(", ")}; expected exactly annotations, images, info, licenses and ${drop.join(", ")}`);
  }
  return out;
}

/** Python's json.dump(value, f, indent=4, sort_keys=True). */
export function writeSortedJson(file: string, value: PyJson): void {
  writeSortedPyJson(file, value, 4);
}

/** A column of Python ints or strs as pandas writes it: the str() of each value. */
export function labelColumn(values: PyJson[], what: string): Column {
  return {
    kind: "string",
    values: values.map((v, i) => {
      // An int64 column and an object column of str print the same way; both need no other type.
      if (typeof v === "bigint" || typeof v === "string") return v.toString();
      throw new UserError(`${what}: row ${i} is ${String(v)}; expected an integer or a string`);
    }),
  };
}

/** A two-column table, as pd.DataFrame(list_of_dicts) builds it. */
export function twoColumnTable(names: [string, string], a: Column, b: Column): Table {
  return makeTable([
    [names[0], a],
    [names[1], b],
  ]);
}

/** A column repeating one int. */
export function constantIntColumn(value: number, n: number): Column {
  return { kind: "int", values: new Float64Array(n).fill(value) };
}

/** How a competition names its answer files. */
export interface AnswerFiles {
  /** The image record's id field ("id" or "image_id"). */
  idKey: string;
  /** The two column names, id first. */
  columns: [string, string];
  /** The public sample submission's file name. */
  sampleSubmission: string;
  /** The category the sample submission guesses for every id. */
  guess: number;
}

/** private/answers.csv (each test id and its category_id) and a public sample submission guessing one category throughout. */
export function writeAnswers(ctx: UpstreamPrepareContext, test: Sample[], file: string, names: AnswerFiles): void {
  const ids = labelColumn(test.map((s) => s.image.get(names.idKey)!), `${file} (test ids)`);
  const labels = labelColumn(test.map((s) => s.annotation.get("category_id")!), `${file} (category_id)`);
  writeCsv(path.join(ctx.private, "answers.csv"), twoColumnTable(names.columns, ids, labels));
  writeCsv(path.join(ctx.public, names.sampleSubmission), twoColumnTable(names.columns, ids, constantIntColumn(names.guess, test.length)));
}
