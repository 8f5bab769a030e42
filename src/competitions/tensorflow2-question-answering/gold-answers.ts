/**
 * The accepted answers of each test question, read from the private test.jsonl records the way
 * upstream's grader reads them: only the first annotation counts.
 */
import { pyInt } from "../../pycompat/pynum.js";

/** What a prediction for one submission row may match. */
export interface AcceptedAnswers {
  /** Keys of the accepted answers: {@link spanKey} of token spans, {@link textKey} of yes/no answers. */
  keys: Set<string>;
  /** Whether any answer is accepted at all (a blank prediction is then a miss). */
  any: boolean;
}

/** The long and the short answers of one question. */
export interface QuestionAnswers {
  long: AcceptedAnswers;
  short: AcceptedAnswers;
}

/** Key of a token span; start and end are Python ints, written in canonical decimal. */
export function spanKey(start: bigint, end: bigint): string {
  return `span ${start} ${end}`;
}

/** Key of a text answer ("YES", "NO"); kept apart from spans, as a tuple never equals a str. */
export function textKey(text: string): string {
  return `text ${text}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function field(obj: unknown, key: string, where: string): unknown {
  if (!isObject(obj) || !(key in obj)) throw new Error(`Answers ${where} have no "${key}".`);
  return obj[key];
}

/** Python's int() of a token position as JSON gives it: a number (truncated) or decimal text. */
function tokenInt(v: unknown, where: string): bigint {
  if (typeof v === "number" && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === "string") {
    const parsed = pyInt(v);
    if (parsed !== null) return parsed;
  }
  throw new Error(`Answers ${where} hold a token position that is not an integer: ${JSON.stringify(v)}.`);
}

function span(obj: unknown, where: string): string {
  return spanKey(tokenInt(field(obj, "start_token", where), where), tokenInt(field(obj, "end_token", where), where));
}

/** The example id of a record: upstream's preparer writes it as text, and looks it up as text. */
export function exampleId(record: unknown, line: number): string {
  const id = field(record, "example_id", `line ${line}`);
  if (typeof id !== "string") {
    throw new Error(`Answers line ${line}: "example_id" must be text (the preparer writes it quoted), got ${JSON.stringify(id)}.`);
  }
  return id;
}

/**
 * Accepted answers of one record. Long: the annotated long-answer span, unless its start is -1.
 * Short: every short-answer span, plus the yes/no answer unless it is "NONE".
 */
export function questionAnswers(record: unknown, line: number): QuestionAnswers {
  const where = `line ${line}`;
  const annotations = field(record, "annotations", where);
  if (!Array.isArray(annotations) || annotations.length === 0) {
    throw new Error(`Answers ${where}: "annotations" must be a non-empty list.`);
  }
  const annotation: unknown = annotations[0];
  const long: AcceptedAnswers = { keys: new Set(), any: false };
  const longAnswer = field(annotation, "long_answer", `${where} (long_answer)`);
  if (field(longAnswer, "start_token", `${where} (long_answer)`) !== -1) {
    long.keys.add(span(longAnswer, `${where} (long_answer)`));
    long.any = true;
  }
  const short: AcceptedAnswers = { keys: new Set(), any: false };
  const shortAnswers = field(annotation, "short_answers", where);
  if (!Array.isArray(shortAnswers)) throw new Error(`Answers ${where}: "short_answers" must be a list.`);
  for (const s of shortAnswers) {
    short.keys.add(span(s, `${where} (short_answers)`));
    short.any = true;
  }
  const yesNo = field(annotation, "yes_no_answer", where);
  if (yesNo !== "NONE") {
    // Any other value is accepted as given; only the text "YES" or "NO" can ever be predicted.
    if (typeof yesNo === "string") short.keys.add(textKey(yesNo));
    short.any = true;
  }
  return { long, short };
}
