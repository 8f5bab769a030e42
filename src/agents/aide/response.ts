/** Taking a model's answer apart: the plan in prose, the Python code in fenced blocks, and output trimming. */

const FENCE = /```[ \t]*([\w+-]*)[^\n`]*\n([\s\S]*?)(?:\n[ \t]*)?```/g;
const PYTHON_TAG = /^(python3?|py)?$/i;

/**
 * Candidate code blocks of an answer: every fenced block untagged or tagged Python, in order (a shell
 * block could pass the syntax check, so other tags are skipped); an answer without any fence is taken
 * whole, since some models forget the fences.
 */
export function codeBlocks(text: string): string[] {
  const blocks: string[] = [];
  for (const m of text.matchAll(FENCE)) {
    if (!PYTHON_TAG.test(m[1])) continue;
    const body = m[2].trim();
    if (body) blocks.push(body);
  }
  if (blocks.length > 0 || text.includes("```")) return blocks;
  const whole = text.trim();
  return whole ? [whole] : [];
}

/** The prose before the first fence: the plan. Empty when the answer has no fence at all. */
export function planText(text: string): string {
  const i = text.indexOf("```");
  return i < 0 ? "" : text.slice(0, i).trim();
}

/** Checks that a piece of Python parses (run by the caller wherever Python lives). */
export type SyntaxCheck = (code: string) => Promise<boolean>;

/** A plan and the program made from the blocks that parse, or null when the answer has no usable code or plan. */
export async function extractSolution(text: string, check: SyntaxCheck): Promise<{ plan: string; code: string } | null> {
  const plan = planText(text);
  const valid: string[] = [];
  for (const block of codeBlocks(text)) if (await check(block)) valid.push(block);
  const code = valid.join("\n\n");
  return plan && code ? { plan, code } : null;
}

/** Python that exits 0 when stdin parses, 1 with the error otherwise. */
export const SYNTAX_CHECK_PY = "import ast,sys\ntry:\n    ast.parse(sys.stdin.read())\nexcept SyntaxError as e:\n    print(e)\n    sys.exit(1)\n";

/** Keep the head and tail of a long output, saying how much was left out in between. */
export function trimOutput(text: string, max = 5100, keep = 2500): string {
  if (text.length <= max) return text;
  return `${text.slice(0, keep)}\n ... [${text.length - 2 * keep} characters left out] ... \n${text.slice(-keep)}`;
}

/** Markdown fence around code. */
export function fence(code: string, lang = "python"): string {
  return "```" + lang + "\n" + code + "\n```";
}
