/**
 * A JSON-lines file as pandas' `read_json(lines=True)` turns it into a frame, and frames written
 * back with `to_json(orient="records", lines=True)`. Only the shapes Kaggle's OpenVaccine files
 * have are accepted: every record has the same keys, and each column is all text, all numbers,
 * all booleans or all lists/objects, with no missing scalars (pandas would change dtypes there).
 */
import { UserError } from "../../core/errors.js";
import { isPyJsonObject, readPyText, type PyJson, type PyJsonObject } from "../../pycompat/pyjson.js";
import { pyFloat } from "../../pycompat/pynum.js";
import { pyStrip } from "../../pycompat/pystr.js";
import { parseUjson, ujsonEncode } from "./ujson.js";
import { ujsonQuote } from "../_shared/pandas-json.js";

/** The frame: column names in pandas' order and one record per row. */
export interface JsonFrame {
  file: string;
  columns: string[];
  rows: PyJsonObject[];
}

const INT64_LIMIT = 2 ** 63;

function kindOf(v: PyJson): string {
  if (v === null) return "null";
  if (typeof v === "bigint" || typeof v === "number") return "number";
  if (typeof v === "string") return "text";
  if (typeof v === "boolean") return "bool";
  return "nested";
}

/**
 * pandas' dtype guessing for one column: numbers become int64 when every value is a whole
 * number (so 1.0 is written back as 1), otherwise float64; nested values and text stay as they are.
 */
function normaliseColumn(rows: PyJsonObject[], name: string, file: string): void {
  const kinds = new Set(rows.map((r) => kindOf(r.get(name)!)));
  if (kinds.size > 1 || kinds.has("null")) {
    throw new UserError(`${file}: column "${name}" mixes ${[...kinds].join(" and ")} values; expected one kind with none missing`);
  }
  // pandas tries astype("float64") on a text column, which is Python's float() on every cell.
  if (kinds.has("text") && rows.length > 0 && rows.every((r) => pyFloat(r.get(name) as string) !== null)) {
    throw new UserError(`${file}: column "${name}" holds only numbers written as text, which pandas would re-type; expected real text`);
  }
  if (!kinds.has("number")) return;
  const values = rows.map((r) => r.get(name) as bigint | number);
  if (values.every((v) => typeof v === "bigint")) return;
  const asFloat = values.map((v) => Number(v));
  const whole = asFloat.every((x) => Number.isInteger(x) && Math.abs(x) < INT64_LIMIT);
  rows.forEach((r, i) => r.set(name, whole ? BigInt(asFloat[i]) : asFloat[i]));
}

/** `pd.read_json(file, lines=True)`: one record per non-blank line. */
export function readJsonLines(file: string): JsonFrame {
  const text = readPyText(file);
  const rows: PyJsonObject[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = pyStrip(raw);
    if (line === "") return;
    const where = `${file}: line ${i + 1}`;
    const v = parseUjson(line, where);
    if (!isPyJsonObject(v)) throw new UserError(`${where}: expected a JSON object per line`);
    rows.push(v);
  });
  if (rows.length === 0) throw new UserError(`${file}: holds no records`);
  const columns = [...rows[0].keys()];
  rows.forEach((r, i) => {
    if (r.size !== columns.length || columns.some((c) => !r.has(c))) {
      throw new UserError(`${file}: record ${i + 1} has keys ${[...r.keys()].join(", ")}; expected ${columns.join(", ")}`);
    }
  });
  for (const c of columns) normaliseColumn(rows, c, file);
  return { file, columns, rows };
}

/** The `to_json(orient="records", lines=True)` text of these rows and columns. */
export function formatJsonLines(rows: PyJsonObject[], columns: string[], where: string): string {
  const keys = columns.map((c) => ujsonQuote(c, where));
  let out = "";
  for (const r of rows) out += `{${columns.map((c, j) => `${keys[j]}:${ujsonEncode(r.get(c)!, where)}`).join(",")}}\n`;
  return out;
}
