/** The research agent's ReAct loop over an MLAgentBench environment. */
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { ACTIONS } from "../env/actions.js";
import type { LLMClient } from "../../llm/types.js";
import { cutAtObservation, parseActionInput, parseEntries, RESPONSE_ENTRIES } from "./parse.js";
import {
  ASSISTANT_TURN,
  formatReminder,
  initialPrompt,
  inputParsingHint,
  mergeSummariesPrompt,
  promptToolNames,
  retrievalHeader,
  stepSummaryPrompt,
  summarizeBlockPrompt,
} from "./prompts.js";

/** What the loop needs from the environment (the MLAgentBench Environment has it). */
export interface ResearchEnv {
  isFinal(): boolean;
  step(actionName: string, actionInput: unknown): Promise<string>;
}

/** How the research agent behaves; the defaults are the reference's. */
export interface ResearchAgentOptions {
  /** The model that chooses actions. */
  llm: LLMClient;
  /** The model that summarises long observations and research-log entries (default: `llm`). */
  fastLlm?: LLMClient;
  /** The research problem shown to the model. */
  problem: string;
  /** Response entries asked for (default: all six). */
  entries?: readonly string[];
  /** Agent steps before it stops (default 50). */
  maxSteps?: number;
  /** Earlier steps shown in full in each prompt (default 3). */
  stepsInContext?: number;
  /** Of those, how many keep their observation (default 3); older ones show "<Done>". */
  observationStepsInContext?: number;
  /** Attempts at a readable answer per step (default 5). */
  maxRetries?: number;
  /** Keep a research log of step summaries and show the relevant part of it instead of old steps. */
  retrieval?: boolean;
  /** Extra actions left out of the prompt, and actions put back into it. */
  promptRemove?: readonly string[];
  promptAdd?: readonly string[];
  /** Observations longer than this many characters are summarised (default 5000). */
  summarizeOver?: number;
  temperature?: number;
  /** Most tokens of one answer (default 2000). */
  maxTokens?: number;
  /** Host folder for main_log (every prompt's answer and observation) and the agent's state after each step. */
  logDir: string;
  /** Per-call timeout, asked before each call (the run's time left, say). */
  callTimeoutMs?: () => number | undefined;
  /** One progress line. */
  note?: (line: string) => void;
}

/** Why the loop ended. */
export type ResearchStop = "final_answer" | "env_final" | "max_steps" | "no_valid_response" | "llm_error";

/** The loop's outcome. */
export interface ResearchAgentResult {
  stop: ResearchStop;
  /** Agent steps taken (answers acted on). */
  steps: number;
  /** The Final Answer's text, when one was given. */
  finalAnswer: string | null;
  /** What went wrong, for llm_error and no_valid_response. */
  error: string | null;
}

interface HistoryStep {
  envStep: number;
  entries: Record<string, string>;
  observation: string;
}

const PARSE_ERROR = "ActionInputParsingError";

/** The entries as the model wrote them, in order: "Entry: text" run together, as the reference prints them. */
function printAction(entries: Record<string, string>, order: readonly string[]): string {
  return order.map((k) => `${k}: ${entries[k] ?? ""}`).join("");
}

/** Run the research agent on `env` until it gives a Final Answer, the environment ends, or a limit is hit. */
export async function runResearchAgent(env: ResearchEnv, options: ResearchAgentOptions): Promise<ResearchAgentResult> {
  const entriesAsked = options.entries ?? RESPONSE_ENTRIES;
  const maxSteps = options.maxSteps ?? 50;
  const window = options.stepsInContext ?? 3;
  const obsWindow = options.observationStepsInContext ?? 3;
  const maxRetries = options.maxRetries ?? 5;
  const summarizeOver = options.summarizeOver ?? 5000;
  const fast = options.fastLlm ?? options.llm;
  const allNames = new Set(ACTIONS.map((a) => a.name));
  const toolNames = promptToolNames(options.promptRemove, options.promptAdd);
  const head = initialPrompt(options.problem, toolNames, entriesAsked);
  const mainLog = path.join(options.logDir, "main_log");
  fs.mkdirSync(options.logDir, { recursive: true });
  fs.writeFileSync(mainLog, `Tools in the prompt: ${JSON.stringify(toolNames)}\n${"=".repeat(30)} start ${"=".repeat(30)}\n${head}\n`);
  const logLine = (text: string) => fs.appendFileSync(mainLog, text);
  const note = options.note ?? (() => {});

  const ask = async (llm: LLMClient, prompt: string): Promise<string> => {
    const result = await llm.complete({
      messages: [{ role: "user", content: prompt }],
      temperature: options.temperature,
      maxTokens: options.maxTokens ?? 2000,
      timeoutMs: options.callTimeoutMs?.(),
    });
    return result.text;
  };

  let history: HistoryStep[] = [];
  let envSteps = 0;
  // Answers acted on; parsing errors drop out of the history, so its length undercounts them.
  let taken = 0;
  let finalAnswer: string | null = null;
  const envStep = async (name: string, input: unknown): Promise<string> => {
    envSteps++;
    return env.step(name, input);
  };

  while (!env.isFinal() && history.length < maxSteps) {
    const current = history.length;
    let prompt = head;
    try {
      if (current > window && options.retrieval) {
        const relevant = await envStep("Retrieval from Research Log", { current_plan: "" });
        prompt += retrievalHeader(relevant, window);
      } else {
        prompt += "\nNow begin.\n\n";
      }
    } catch (e) {
      return { stop: "llm_error", steps: taken, finalAnswer, error: (e as Error).message };
    }
    for (let i = Math.max(current - window, 0); i < current; i++) {
      const h = history[i]!;
      prompt += `${ASSISTANT_TURN}\n${printAction(h.entries, entriesAsked)}\nObservation:`;
      prompt += current - i > obsWindow ? "<Done>\n\n" : `\n\`\`\`\n${h.observation}\n\`\`\`\n\n`;
    }

    let entries: Record<string, string> | null = null;
    let lastProblem = "";
    for (let attempt = 0; attempt < maxRetries && entries === null; attempt++) {
      let completion: string;
      try {
        completion = cutAtObservation(await ask(options.llm, prompt));
      } catch (e) {
        note(`step ${current}: the model could not be reached: ${(e as Error).message}`);
        return { stop: "llm_error", steps: taken, finalAnswer, error: (e as Error).message };
      }
      try {
        const parsed = parseEntries(completion, entriesAsked);
        const action = (parsed.Action ?? "").trim();
        if (!allNames.has(action)) throw new Error(`"${action}" is not one of the tools`);
        entries = parsed;
      } catch (e) {
        lastProblem = (e as Error).message;
        note(`step ${current}: answer ${attempt + 1} unreadable (${lastProblem}); asking again`);
        logLine(`Step ${current}: unreadable answer discarded (${lastProblem}):\n${completion}\n`);
        prompt += formatReminder(entriesAsked);
      }
    }
    if (entries === null) {
      return { stop: "no_valid_response", steps: taken, finalAnswer, error: `no readable answer after ${maxRetries} attempts: ${lastProblem}` };
    }

    const plan = entries["Research Plan and Status"];
    if (plan !== undefined) entries["Research Plan and Status"] = (plan.replace(/^`+|`+$/g, "") + "\n\n").replace(/\*\*/g, "");
    const action = entries.Action!.trim();
    const info = ACTIONS.find((a) => a.name === action)!;
    let input: Record<string, unknown> | null = null;
    let parseError = "";
    try {
      input = parseActionInput(entries["Action Input"] ?? "", info);
    } catch (e) {
      parseError = (e as Error).message;
    }
    logLine(`Step ${current}:${ASSISTANT_TURN}\n${printAction(entries, entriesAsked)}\nObservation:\n`);
    note(`step ${current}: ${action}`);

    let observation: string;
    try {
      if (input === null) observation = `${PARSE_ERROR}: ${parseError}\n${inputParsingHint(info)}`;
      else {
        if (action === "Final Answer") finalAnswer = String(input.final_answer ?? "");
        observation = await envStep(action, input);
        if (observation.length > summarizeOver) {
          note(`step ${current}: observation of ${observation.length} characters summarised`);
          observation = await summarizeObservation(fast, ask, printAction(entries, entriesAsked), observation);
        }
      }
    } catch (e) {
      return { stop: "llm_error", steps: taken + 1, finalAnswer, error: (e as Error).message };
    }
    taken++;
    history.push({ envStep: envSteps - 1, entries, observation });
    // A parsing error stays visible only until the next step that parsed.
    if (!observation.startsWith(PARSE_ERROR)) history = history.filter((h) => !h.observation.startsWith(PARSE_ERROR));
    logLine(`\n\`\`\`\n${observation}\n\`\`\`\n\n`);

    if (options.retrieval && !env.isFinal()) {
      let summary = "Too long to summarize.";
      for (let attempt = 0; attempt < maxRetries; attempt++) {
        try {
          const text = await ask(fast, stepSummaryPrompt(printAction(entries, entriesAsked), observation));
          const i = text.indexOf("[Reasoning]:");
          if (i < 0) throw new Error("no [Reasoning]: in the summary");
          summary = text.slice(i);
          break;
        } catch (e) {
          note(`step ${current}: research-log summary failed (${(e as Error).message})`);
        }
      }
      await envStep("Append Summary to Research Log", { content: `\n\nStep ${current}:\n${summary}\n` });
    }
    writeFileAtomic(
      path.join(options.logDir, `agent_${envSteps - 1}_${current}.json`),
      JSON.stringify({ history, finalAnswer }, null, 2) + "\n",
    );
    if (action === "Final Answer" && input !== null) return { stop: "final_answer", steps: taken, finalAnswer, error: null };
  }
  return { stop: env.isFinal() ? "env_final" : "max_steps", steps: taken, finalAnswer, error: null };
}

/** Summarise an observation in 10 000-character parts, then merge the parts' summaries. */
async function summarizeObservation(
  llm: LLMClient,
  ask: (llm: LLMClient, prompt: string) => Promise<string>,
  action: string,
  observation: string,
): Promise<string> {
  const size = 10_000;
  const summaries: string[] = [];
  for (let i = 0; i < observation.length; i += size) {
    const block = observation.slice(i, i + size);
    summaries.push(await ask(llm, summarizeBlockPrompt(action, block, i + 1, i + 1 + block.length)));
  }
  const text = summaries.length === 1 ? summaries[0]! : await ask(llm, mergeSummariesPrompt(action, summaries));
  const i = text.indexOf("[Observation]:");
  return i < 0 ? text : text.slice(i + "[Observation]:".length);
}
