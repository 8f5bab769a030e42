import { z } from "zod";

/** One action the agent may take: its name, what it does, its inputs (name → meaning) and what it returns. */
export interface ActionInfo {
  name: string;
  description: string;
  usage: Record<string, string>;
  returnValue: string;
  /** Which inputs must be text; the others (line numbers) may be integers or integer text. */
  lineArgs?: readonly string[];
  /** Whether the action needs an LLM. */
  usesLlm?: boolean;
}

const FILE = "a file path relative to the workspace, e.g. \"train.py\" or \"data/notes.txt\"";
const SCRIPT = "a python script path relative to the workspace";
const LINE = "a line number (1-based)";

/** Every action of the environment, in the order upstream lists them (low-level first, then high-level). */
export const ACTIONS: readonly ActionInfo[] = [
  {
    name: "List Files",
    description: "List the files and folders of a workspace directory.",
    usage: { dir_path: 'a directory path relative to the workspace, e.g. "." or "folder1/folder2"' },
    returnValue: "The entries of the directory, one a line (folders end in /), or an error if the path is not a directory.",
  },
  {
    name: "Read File",
    description: "Return the whole text of a file.",
    usage: { file_name: FILE },
    returnValue: "The file's content.",
  },
  {
    name: "Write File",
    description: "Create a file with the given text, replacing it if it exists.",
    usage: { file_name: FILE, content: "the text to write" },
    returnValue: "A message saying the file was written, or an error.",
  },
  {
    name: "Append File",
    description: "Add text at the end of a file, creating it if needed.",
    usage: { file_name: FILE, content: "the text to add" },
    returnValue: "A message saying the text was appended, or an error.",
  },
  {
    name: "Copy File",
    description: "Copy a file to another path in the workspace.",
    usage: { source: FILE, destination: FILE },
    returnValue: "A message saying the file was copied, or an error.",
  },
  {
    name: "Undo Edit Script",
    description: "Revert the most recent AI edit of a python script.",
    usage: { script_name: SCRIPT },
    returnValue: "The script's content after the revert, or an error when there is nothing to revert.",
  },
  {
    name: "Execute Script",
    description: "Run an existing python script in the workspace and return what it printed.",
    usage: { script_name: SCRIPT },
    returnValue: "The script's output, or its errors when it failed.",
  },
  {
    name: "Final Answer",
    description: "Finish the task, describing the final result.",
    usage: { final_answer: "a detailed account of the final result" },
    returnValue: "Nothing; the episode ends.",
  },
  {
    name: "Understand File",
    description:
      "Have an assistant read a whole file and report on the aspects you ask about; be specific about what to look for. Use Inspect Script Lines to see exact lines.",
    usage: { file_name: FILE, things_to_look_for: "precisely what to find in the file and what to report" },
    returnValue: "A description of the relevant content, citing lines, or an error if the file cannot be read.",
    usesLlm: true,
  },
  {
    name: "Append Summary to Research Log",
    description: "Add a summary of the last step to the research log.",
    usage: { content: "the summary, at most about 500 characters" },
    returnValue: "A success message, or an error.",
  },
  {
    name: "Inspect Script Lines",
    description: "Show an exact range of lines of a script (at most 100 lines), or a whole short script.",
    usage: { script_name: SCRIPT, start_line_number: LINE, end_line_number: LINE },
    returnValue: "The requested lines and the file's length, or an error.",
    lineArgs: ["start_line_number", "end_line_number"],
  },
  {
    name: "Edit Script (AI)",
    description:
      "Describe a coherent edit of a whole python script and let an assistant make it; the result is saved under save_name and can be reverted with Undo Edit Script.",
    usage: {
      script_name: `${SCRIPT}; an empty script is created when it does not exist`,
      edit_instruction: "step-by-step instructions for the edit",
      save_name: "where to save the edited script, relative to the workspace",
    },
    returnValue: "A diff of the edit; check it, and undo the edit if it is wrong.",
    usesLlm: true,
  },
  {
    name: "Edit Script Segment (AI)",
    description:
      "Like Edit Script (AI), but the assistant sees and rewrites only the given range of lines; the rest of the script is kept.",
    usage: {
      script_name: `${SCRIPT}; an empty script is created when it does not exist`,
      start_line_number: LINE,
      end_line_number: LINE,
      edit_instruction: "step-by-step instructions for the edit",
      save_name: "where to save the edited script, relative to the workspace",
    },
    returnValue: "A diff of the edit; check it, and undo the edit if it is wrong.",
    lineArgs: ["start_line_number", "end_line_number"],
    usesLlm: true,
  },
  {
    name: "Reflection",
    description: "Have an assistant look back over the research log and reflect on the question you give.",
    usage: { things_to_reflect_on: "what to reflect on and what to return" },
    returnValue: "The reflection.",
    usesLlm: true,
  },
  {
    name: "Retrieval from Research Log",
    description: "Have an assistant pick out what in the research log matters for your current plan.",
    usage: { current_plan: "the current research plan and status" },
    returnValue: "The relevant information from the research log.",
    usesLlm: true,
  },
];

/** The zod schema of an action's input: every usage key required, text (line numbers may also be integers). */
export function inputSchema(info: ActionInfo): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, meaning] of Object.entries(info.usage)) {
    shape[key] = (info.lineArgs?.includes(key) ? z.union([z.number().int(), z.string()]) : z.string()).describe(meaning);
  }
  return z.object(shape);
}

/** The action table for an agent's prompt: name, description, input schema and return value of each action. */
export function actionTable(): { name: string; description: string; usage: Record<string, string>; returnValue: string; schema: z.ZodObject }[] {
  return ACTIONS.map((a) => ({ name: a.name, description: a.description, usage: a.usage, returnValue: a.returnValue, schema: inputSchema(a) }));
}

/** Upstream's hint for malformed action input: the action's usage as a JSON-like block. */
export function invalidInputMessage(info: ActionInfo): string {
  const usage = Object.entries(info.usage)
    .map(([k, v]) => `${k}: [${v}]`)
    .join(",\n            ");
  return (
    `The action input for ${info.name} needs to be a valid json with proper entries. You may have missed the comma between entries. ` +
    `Please use the correct format and try again:\n{\n            ${usage}\n}`
  );
}
