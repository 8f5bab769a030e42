import path from "node:path";
import type { PrepareContext } from "../../core/competition.js";
import { type Column, makeTable, takeColumn } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { Mulberry32 } from "../../rng/mulberry32.js";
import { indices, randomIds } from "../_shared/random-ids.js";
import { sourceColumn, textValues } from "../_shared/source-columns.js";

/** Share of sales held out as the test set (a plain random split, as in Kaggle's house-prices). */
const TEST_FRACTION = 0.3;
const SEED = 20060110;

export const TARGET = "Sale_Price";

/** Every column of modeldata's `ames` but the price, in the source's order; all are published. */
export const FEATURES = [
  "MS_SubClass", "MS_Zoning", "Lot_Frontage", "Lot_Area", "Street", "Alley", "Lot_Shape", "Land_Contour", "Utilities",
  "Lot_Config", "Land_Slope", "Neighborhood", "Condition_1", "Condition_2", "Bldg_Type", "House_Style", "Overall_Cond",
  "Year_Built", "Year_Remod_Add", "Roof_Style", "Roof_Matl", "Exterior_1st", "Exterior_2nd", "Mas_Vnr_Type",
  "Mas_Vnr_Area", "Exter_Cond", "Foundation", "Bsmt_Cond", "Bsmt_Exposure", "BsmtFin_Type_1", "BsmtFin_SF_1",
  "BsmtFin_Type_2", "BsmtFin_SF_2", "Bsmt_Unf_SF", "Total_Bsmt_SF", "Heating", "Heating_QC", "Central_Air", "Electrical",
  "First_Flr_SF", "Second_Flr_SF", "Gr_Liv_Area", "Bsmt_Full_Bath", "Bsmt_Half_Bath", "Full_Bath", "Half_Bath",
  "Bedroom_AbvGr", "Kitchen_AbvGr", "TotRms_AbvGrd", "Functional", "Fireplaces", "Garage_Type", "Garage_Finish",
  "Garage_Cars", "Garage_Area", "Garage_Cond", "Paved_Drive", "Wood_Deck_SF", "Open_Porch_SF", "Enclosed_Porch",
  "Three_season_porch", "Screen_Porch", "Pool_Area", "Pool_QC", "Fence", "Misc_Feature", "Misc_Val", "Mo_Sold",
  "Year_Sold", "Sale_Type", "Sale_Condition", "Longitude", "Latitude",
];

/**
 * Categories whose source level is the word "None". pandas 2 (and the reader here) takes a bare
 * None for a missing value while pandas 1 keeps it as text, so the level is renamed in the style
 * of the source's other "absent" levels (No_Fence, No_Pool).
 */
const NONE_LEVELS: Record<string, string> = { Mas_Vnr_Type: "No_Veneer", Misc_Feature: "No_Feature" };

/** A published column: the "None" levels renamed, stray trailing spaces (the source's "WD ") trimmed. */
function cleaned(col: Column, name: string, file: string): Column {
  if (col.kind !== "string") return col;
  const none = NONE_LEVELS[name];
  const values = textValues(col, name, file).map((v, i) => {
    if (v === null) {
      if (none !== undefined) return none;
      throw new Error(`${file}: column "${name}" is empty in data row ${i + 1}`);
    }
    return v.trimEnd();
  });
  return { kind: "string", values };
}

/**
 * Split the 2,930 home sales of Ames, Iowa (2006–2010) at random: 30% of them, drawn by a seeded
 * shuffle, are the test set. Every source column is published except that the price is held out
 * of the test file. Ids come from a second shuffle, so they carry no information about the
 * source's order (which follows the assessor's parcel listing) or the side of the split.
 */
export function prepare(ctx: PrepareContext): void {
  const file = ctx.sources.ames;
  const source = readCsv(file, { file });
  const unexpected = source.columns.filter((c) => c !== TARGET && !FEATURES.includes(c));
  if (unexpected.length > 0) throw new Error(`${file}: unexpected column(s) ${unexpected.join(", ")}; the preparer knows ${FEATURES.length + 1}`);
  const columns = new Map(FEATURES.map((name) => [name, cleaned(sourceColumn(source, name, file), name, file)]));
  const priceColumn = sourceColumn(source, TARGET, file);
  if (priceColumn.kind !== "int") throw new Error(`${file}: column "${TARGET}" should hold whole dollars, but it was read as ${priceColumn.kind}`);
  const price = priceColumn.values;
  price.forEach((v, i) => {
    if (!(v > 0)) throw new Error(`${file}: data row ${i + 1} has ${TARGET} ${v}, expected a positive price`);
  });

  const n = source.rowCount;
  const rng = new Mulberry32(SEED);
  const order = rng.shuffle(indices(n));
  const testRows = new Set(order.slice(0, Math.round(n * TEST_FRACTION)));
  const id = randomIds(rng, indices(n));
  const train = id.sortById(order.filter((i) => !testRows.has(i)));
  const test = id.sortById(order.filter((i) => testRows.has(i)));

  const ids = id.column;
  const features = (rows: number[]): [string, Column][] => FEATURES.map((name) => [name, takeColumn(columns.get(name)!, rows)]);
  const target = (rows: number[]): [string, Column] => [TARGET, takeColumn(priceColumn, rows)];

  // The sample submission predicts the train median for every house.
  const sorted = Float64Array.from(train, (i) => price[i]).sort();
  const mid = sorted.length >> 1;
  const median = Math.round(sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2);

  writeCsv(path.join(ctx.public, "train.csv"), makeTable([ids(train), ...features(train), target(train)]));
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([ids(test), ...features(test)]));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable([ids(test), [TARGET, { kind: "int", values: new Float64Array(test.length).fill(median) }]]));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable([ids(test), target(test)]));
}
