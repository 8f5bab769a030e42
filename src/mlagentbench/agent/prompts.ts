/** The research agent's prompts: the same structure as the reference agent's, in this project's own words. */
import { ACTIONS, type ActionInfo } from "../env/actions.js";

/** What each response entry must hold. */
export const ENTRY_GUIDE: Readonly<Record<string, string>> = {
  Reflection: "What the last observation tells you. If it shows an error, what caused it and how you will fix it.",
  "Research Plan and Status":
    "The complete high-level plan with the status of each step and the confirmed results so far, kept short. Only record progress that earlier steps actually made. Wrap anything new since the last step in double asterisks **like this**; if nothing changed, repeat the previous plan and status. Keep the earlier plan unless you deliberately revise it.",
  "Fact Check":
    "Each objective statement in the update to the plan and status, marked as either guessed or directly confirmed by the observation above. A performance number is confirmed only by running code and reading its output.",
  Thought: "What you are doing now, which action you will take and why.",
  Action: "The name of one of the tools.",
  "Action Input": "The tool's input, as a valid JSON object.",
};

/** Actions the reference leaves out of the prompt by default (the agent may still call them). */
export const HIDDEN_FROM_PROMPT = [
  "Read File",
  "Write File",
  "Append File",
  "Retrieval from Research Log",
  "Append Summary to Research Log",
  "Python REPL",
  "Edit Script Segment (AI)",
] as const;

/** One tool's description, usage block and return value, as shown to the model. */
export function toolPrompt(info: ActionInfo): string {
  const usage = Object.entries(info.usage)
    .map(([k, v]) => `    "${k}": [${v}]`)
    .join(",\n");
  return `- ${info.name}:\n${info.description}\nUsage:\n\`\`\`\nAction: ${info.name}\nAction Input: {\n${usage}\n}\nObservation: [${info.returnValue}]\n\`\`\`\n`;
}

/** The tool names shown in the prompt: all actions but the hidden ones, adjusted by `remove` and `add`. */
export function promptToolNames(remove: readonly string[] = [], add: readonly string[] = []): string[] {
  const hidden = new Set<string>([...HIDDEN_FROM_PROMPT, ...remove]);
  const names = ACTIONS.map((a) => a.name).filter((n) => !hidden.has(n));
  for (const n of add) if (!names.includes(n) && ACTIONS.some((a) => a.name === n)) names.push(n);
  return names;
}

/** The fixed head of every prompt: tools, research problem, working rules and the answer format. */
export function initialPrompt(problem: string, toolNames: readonly string[], entries: readonly string[]): string {
  const tools = toolNames.map((n) => toolPrompt(ACTIONS.find((a) => a.name === n)!)).join("\n");
  const format = entries.map((e) => `${e}: ${ENTRY_GUIDE[e] ?? ""}`).join("\n");
  return `You are a careful machine-learning research assistant. You can use these tools:
${tools}
Research Problem: ${problem}

You know nothing about this problem yet.

Rules to keep throughout:
- Start with a high-level plan that fits the problem and the tools, and record it in the Research Plan and Status; you may revise it later.
- Keep the Research Plan and Status well organised and brief: 1) the high-level plan, 2) which steps are done and which are in progress, 3) a short result or conclusion for each finished step.
- Record only progress made by earlier steps, and no result that the latest observation did not confirm.
- Performance numbers enter the status only after you ran the code and saw them in its output.
- Design experiments properly: where it applies, measure the baseline before trying to improve on it.
- Follow the plan and reach the goal as directly as you can.
- Show the experimental results and the reasoning that support a conclusion before drawing it.
- Do not install new packages or libraries.
- When you are sure the problem is solved, use the Final Answer action. It can be used only once, so check first.

Answer in exactly this format every time:
${format}
Observation:
\`\`\`
the result of the action
\`\`\`
`;
}

/** Added to the prompt after an answer that could not be read. */
export function formatReminder(entries: readonly string[]): string {
  return `\n\nYour last answer did not follow the format. Answer again with every entry: ${entries.join(", ")}\n\n`;
}

/** The hint given when an action input cannot be read as JSON with the right keys. */
export function inputParsingHint(info: ActionInfo): string {
  const usage = Object.entries(info.usage)
    .map(([k, v]) => `    ${k}: [${v}]`)
    .join(",\n");
  return (
    `The action input for ${info.name} must be a valid JSON object with exactly these entries. A comma between entries may be missing, ` +
    `or triple quotes may have been used (JSON has none). Use this format and try again:\n{\n${usage}\n}`
  );
}

/** Asks for a summary of one part of an observation too long to keep whole. */
export function summarizeBlockPrompt(action: string, block: string, from: number, to: number): string {
  return `${action}

The observation of this action is too long to keep. Here is the part from character ${from} to character ${to}:
\`\`\`
${block}
\`\`\`
Summarise it briefly in this format:
[Observation]: every relevant detail of the observation, stated objectively

Include nothing guessed rather than shown by the observation, and no advice or extra information.
`;
}

/** Asks to merge the summaries of an observation's parts. */
export function mergeSummariesPrompt(action: string, summaries: string[]): string {
  const parts = summaries.map((s, i) => `Part ${i}:\n\n${s}`).join("\n\n");
  return `${action}

The observation of this action is too long to keep. Here are summaries of its successive parts; merge them into one coherent description of the whole observation.
${parts}

Summarise it briefly in this format:
[Observation]: every relevant detail of the observation, stated objectively

Include nothing guessed rather than shown by the observation, and no advice or extra information.
`;
}

/** Asks for the research-log entry of one step. */
export function stepSummaryPrompt(action: string, observation: string): string {
  return `Here is an action you took and what it returned:
${action}
[Observation]:
\`\`\`
${observation}
\`\`\`
Summarise the step in this format:
[Reasoning]: the reasoning behind the action
[Action]: every relevant detail of the action, stated objectively
[Observation]: every relevant detail of the observation, stated objectively
Include nothing guessed rather than shown by the observation, and no advice or extra information.
`;
}

/** Introduces the research-log excerpt that replaces old steps when retrieval is on. */
export function retrievalHeader(relevant: string, window: number): string {
  return `\nA summary of the relevant actions and observations so far:\n\`\`\`\n${relevant}\n\`\`\`\nThe most recent steps exactly as they happened (up to ${window}):\n`;
}

/** Marks where the model's own earlier answers begin in the prompt. */
export const ASSISTANT_TURN = "\n\nAssistant:";
