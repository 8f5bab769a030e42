/** One JSON line per LLM call (failed ones too), appended to the run's log file. */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { CompletionRequest, FinishReason, Message, ToolCall, ToolChoice, Usage } from "./types.js";

/** A tool as sent to a model: its JSON schema instead of the zod object. */
export interface ToolSummary {
  name: string;
  description: string;
  parameters: unknown;
}

/** The parts of a request that decide the answer (no timeout), in plain JSON. */
export interface RequestSummary {
  messages: Message[];
  tools?: ToolSummary[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  temperature?: number;
}

/** One line of the call log. */
export interface CallLogEntry {
  time: string;
  model: string;
  request: RequestSummary;
  response: { text: string; toolCalls: ToolCall[]; finishReason: FinishReason; refusal?: string; model: string } | null;
  usage: Usage | null;
  latencyMs: number;
  costUsd: number | null;
  attempts: number;
  error: string | null;
  /** "replay" when the answer came from a recording rather than a provider. */
  source?: "provider" | "replay";
}

/** The JSON schema of a tool's parameters (what the model must write). */
export function toolJsonSchema(schema: z.ZodType): unknown {
  // Unrepresentable parts (transforms, dates) become {} rather than failing the call being logged.
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  // The meta-schema URL is the same for every tool and only adds noise to logs and recordings.
  delete json.$schema;
  return json;
}

/** A request in plain JSON: messages, tools with their JSON schemas, toolChoice, maxTokens, temperature. */
export function summariseRequest(request: CompletionRequest): RequestSummary {
  const summary: RequestSummary = { messages: request.messages };
  if (request.tools !== undefined) {
    summary.tools = request.tools.map((t) => ({ name: t.name, description: t.description, parameters: toolJsonSchema(t.parameters) }));
  }
  if (request.toolChoice !== undefined) summary.toolChoice = request.toolChoice;
  if (request.maxTokens !== undefined) summary.maxTokens = request.maxTokens;
  if (request.temperature !== undefined) summary.temperature = request.temperature;
  return summary;
}

/** Appends call records to one file, creating its folder on first use. */
export class CallLog {
  private ready = false;

  constructor(readonly file: string) {}

  /** Append one entry as a single line; one write call per line, so concurrent appends do not interleave. */
  append(entry: CallLogEntry): void {
    if (!this.ready) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      this.ready = true;
    }
    fs.appendFileSync(this.file, JSON.stringify(entry) + "\n");
  }
}

/** Read a call log back, one entry per line. */
export function readCallLog(file: string): CallLogEntry[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as CallLogEntry);
}
