import type { Answers } from "../core/competition.js";
import type { Table } from "../core/table.js";

/** The answers as a table; JSONL answers reaching a CSV grader mean a misconfigured competition. */
export function requireTable(answers: Answers): Table {
  if (Array.isArray(answers)) throw new Error("this grader expects CSV answers, but got JSON lines");
  return answers;
}
