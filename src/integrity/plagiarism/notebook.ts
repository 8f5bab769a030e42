/**
 * Turns a Jupyter notebook into a plain script of its code cells, so a notebook can be compared
 * with scripts. Markdown and outputs are dropped; shell and magic lines become comments, which
 * keeps them readable without feeding a parser syntax it does not know.
 */
import { UserError } from "../../core/errors.js";

/** The code of a notebook and the language its kernel runs (lower case, "" when the notebook does not say). */
export interface NotebookScript {
  code: string;
  language: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// nbformat stores multi-line text either as one string or as a list of lines that keep their "\n".
function joinSource(source: unknown): string | null {
  if (typeof source === "string") return source;
  if (Array.isArray(source) && source.every((s) => typeof s === "string")) return source.join("");
  return null;
}

function kernelLanguage(notebook: Record<string, unknown>): string {
  const meta = isRecord(notebook.metadata) ? notebook.metadata : {};
  const spec = isRecord(meta.kernelspec) ? meta.kernelspec : {};
  const info = isRecord(meta.language_info) ? meta.language_info : {};
  const name = [spec.language, info.name].find((v) => typeof v === "string" && v.trim() !== "");
  return typeof name === "string" ? name.trim().toLowerCase() : "";
}

// Cells of nbformat 4 sit at the top; nbformat 3 nests them in worksheets and calls the source "input".
function codeCells(notebook: Record<string, unknown>, label: string): string[] {
  if (!Array.isArray(notebook.cells) && !Array.isArray(notebook.worksheets)) {
    throw new UserError(`${label}: not a Jupyter notebook: expected a JSON object with a "cells" list (nbformat 4)`);
  }
  const cells: unknown[] = Array.isArray(notebook.cells)
    ? notebook.cells
    : (notebook.worksheets as unknown[]).flatMap((w) => (isRecord(w) && Array.isArray(w.cells) ? w.cells : []));
  const out: string[] = [];
  cells.forEach((cell, i) => {
    if (!isRecord(cell) || cell.cell_type !== "code") return;
    const text = joinSource(cell.source ?? cell.input);
    if (text === null) throw new UserError(`${label}: cell ${i}: expected "source" to be a string or a list of strings`);
    out.push(text);
  });
  return out;
}

// IPython's "%magic", "%%cell magic" and "!shell" lines are not code of the notebook's language.
function commentOutMagics(cell: string): string {
  return cell
    .split("\n")
    .map((line) => (/^\s*[%!]/.test(line) ? `# ${line.trimStart()}` : line))
    .join("\n");
}

/** The code cells of the notebook in `text`, in order, separated by a blank line and ending in a newline. */
export function notebookToScript(text: string, label = "notebook"): NotebookScript {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${label}: not a Jupyter notebook: invalid JSON (${(err as Error).message})`);
  }
  if (!isRecord(data)) throw new UserError(`${label}: not a Jupyter notebook: expected a JSON object`);
  const cells = codeCells(data, label)
    .map((cell) => commentOutMagics(cell).replace(/\s+$/, ""))
    .filter((cell) => cell !== "");
  return { code: cells.length === 0 ? "" : `${cells.join("\n\n")}\n`, language: kernelLanguage(data) };
}
