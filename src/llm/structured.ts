/** Structured output: force one tool call, validate its arguments with zod, and re-ask when the model gets it wrong. */
import type { z } from "zod";
import type { CompletionRequest, CompletionResult, LLMClient, Message, ToolSpec } from "./types.js";

/** The model never produced valid arguments for the tool; carries what it said last and why that was rejected. */
export class StructuredOutputError extends Error {
  override name = "StructuredOutputError";
  constructor(
    message: string,
    /** The model's last text (or refusal). */
    readonly lastText: string,
    /** What was wrong with the last answer: validation issues, or why there was no usable call. */
    readonly issues: string[],
    readonly result: CompletionResult,
  ) {
    super(message);
  }
}

/** Why an answer is unusable, and what to tell the model. */
interface Problem {
  issues: string[];
  /** The tool results owed for every call the model made (providers require one per call). */
  toolReplies: Message[];
  feedback: string;
}

type Verdict<T> = { ok: true; value: T } | { ok: false; problem: Problem };

const EXCERPT = 300;

function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
}

/**
 * Make the model call `tool`, validate the arguments with its zod schema and return them with the call's
 * result. A text answer, refusal, other tool or invalid arguments is explained to the model and asked
 * again, up to `retries` times (default 2); then StructuredOutputError.
 */
export async function callTool<T>(
  client: LLMClient,
  request: CompletionRequest,
  tool: ToolSpec & { parameters: z.ZodType<T> },
  options: { retries?: number } = {},
): Promise<{ value: T; result: CompletionResult }> {
  const retries = options.retries ?? 2;
  const others = (request.tools ?? []).filter((t) => t.name !== tool.name);
  const messages = [...request.messages];
  for (let attempt = 0; ; attempt++) {
    const result = await client.complete({ ...request, messages: [...messages], tools: [...others, tool], toolChoice: { name: tool.name } });
    const verdict = judge(result, tool);
    if (verdict.ok) return { value: verdict.value, result };
    const { problem } = verdict;
    if (attempt >= retries) {
      const said = result.refusal ?? result.text;
      throw new StructuredOutputError(
        `${client.model} did not produce a valid \`${tool.name}\` call after ${attempt + 1} attempts: ${problem.issues.join("; ")}` +
          (said ? `. Its last text: ${JSON.stringify(excerpt(said))}` : ""),
        said,
        problem.issues,
        result,
      );
    }
    messages.push({ role: "assistant", content: result.text, ...(result.toolCalls.length ? { toolCalls: result.toolCalls } : {}) });
    messages.push(...problem.toolReplies, { role: "user", content: problem.feedback });
  }
}

function judge<T>(result: CompletionResult, tool: ToolSpec & { parameters: z.ZodType<T> }): Verdict<T> {
  const call = result.toolCalls.find((c) => c.name === tool.name);
  const fix = `Call the \`${tool.name}\` tool exactly once, with arguments that match its JSON schema.`;
  const skipped = (why: string): Message[] =>
    result.toolCalls.filter((c) => c !== call).map((c) => ({ role: "tool", toolCallId: c.id, name: c.name, content: why }));

  if (!call) {
    let issue: string;
    if (result.refusal !== undefined || result.finishReason === "refusal") {
      issue = `the model refused: ${JSON.stringify(excerpt(result.refusal ?? result.text))}`;
    } else if (result.toolCalls.length > 0) {
      issue = `the model called ${result.toolCalls.map((c) => `\`${c.name}\``).join(", ")} instead of \`${tool.name}\``;
    } else if (result.finishReason === "length") {
      issue = `the answer was cut off at the token limit before any \`${tool.name}\` call`;
    } else {
      issue = `the model answered in text instead of calling \`${tool.name}\`: ${JSON.stringify(excerpt(result.text))}`;
    }
    const toolReplies = skipped(`Not run: only \`${tool.name}\` may be called here.`);
    return { ok: false, problem: { issues: [issue], toolReplies, feedback: `Your answer was not usable: ${issue.replace(/^the model/, "you")}. ${fix}` } };
  }

  let args: unknown;
  try {
    args = JSON.parse(call.rawArguments === "" ? "{}" : call.rawArguments);
  } catch (err) {
    const issue = `the arguments of \`${tool.name}\` are not valid JSON (${(err as Error).message}): ${JSON.stringify(excerpt(call.rawArguments))}`;
    return invalid(call.id, tool.name, [issue], skipped, fix);
  }
  const parsed = tool.parameters.safeParse(args);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.map(String).join(".") : "(arguments)"}: ${i.message}`);
  return invalid(call.id, tool.name, issues, skipped, fix);
}

function invalid(
  id: string,
  name: string,
  issues: string[],
  skipped: (why: string) => Message[],
  fix: string,
): { ok: false; problem: Problem } {
  const list = issues.map((i) => `- ${i}`).join("\n");
  const toolReplies: Message[] = [
    { role: "tool", toolCallId: id, name, content: `Rejected: the arguments do not match the schema.\n${list}` },
    ...skipped(`Not run: only \`${name}\` may be called here.`),
  ];
  return { ok: false, problem: { issues, toolReplies, feedback: `Your \`${name}\` call was rejected:\n${list}\n${fix}` } };
}
