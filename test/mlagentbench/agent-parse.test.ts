import { describe, expect, it } from "vitest";
import { cutAtObservation, matchActionInput, parseActionInput, parseEntries, RESPONSE_ENTRIES, sanitizeJson } from "../../src/mlagentbench/agent/parse.js";
import { ACTIONS } from "../../src/mlagentbench/env/actions.js";
import { initialPrompt, promptToolNames } from "../../src/mlagentbench/agent/prompts.js";

const info = (name: string) => ACTIONS.find((a) => a.name === name)!;

describe("research agent answer parsing", () => {
  it("splits the six entries, each running to the last label of the next", () => {
    const text =
      "Reflection: fine\nResearch Plan and Status: 1. run\nFact Check: none\nThought: the Action: word inside\nAction: Execute Script\nAction Input: {\"script_name\": \"train.py\"}\n";
    const e = parseEntries(text, RESPONSE_ENTRIES);
    expect(e.Reflection).toBe(" fine\n");
    expect(e.Thought).toBe(" the Action: word inside\n");
    expect(e.Action).toBe(" Execute Script\n");
    expect(e["Action Input"]).toBe(' {"script_name": "train.py"}\n');
  });

  it("refuses an answer missing an entry or giving them out of order", () => {
    expect(() => parseEntries("Thought: x\nAction: List Files\n", RESPONSE_ENTRIES)).toThrow(/lacks one of the entries/);
    expect(() => parseEntries("Action: A\nThought: t\nAction Input: {}", ["Thought", "Action", "Action Input"])).toThrow(/in this order/);
    expect(() => parseEntries("Action Input: {}\nAction: A\n", ["Action", "Action Input"])).toThrow(/in this order/);
    expect(() => parseEntries("Action Input: {}\n", ["Action", "Action Input"])).toThrow();
  });

  it("drops everything from the first Observation: on, as the stop sequence would", () => {
    expect(cutAtObservation("Action: X\nObservation: made up\nmore")).toBe("Action: X\n");
    expect(cutAtObservation("no marker")).toBe("no marker");
  });

  it("reads plain JSON, JSON with raw newlines and tabs in strings, and key-by-key matches", () => {
    expect(parseActionInput('{"script_name": "train.py"}', info("Execute Script"))).toEqual({ script_name: "train.py" });
    expect(parseActionInput('```json\n{"file_name": "a.py", "content": "x = 1\n\ty = 2"}\n```', info("Write File"))).toEqual({
      file_name: "a.py",
      content: "x = 1\n\ty = 2",
    });
    // Unquoted value: not JSON at all, but the matcher still finds the one key.
    expect(parseActionInput('{"script_name": train.py}', info("Execute Script"))).toEqual({ script_name: "train.py" });
    expect(parseActionInput('{"script_name": "t.py", "start_line_number": 1, "end_line_number": 20}', info("Inspect Script Lines"))).toEqual({
      script_name: "t.py",
      start_line_number: 1,
      end_line_number: 20,
    });
  });

  it("refuses wrong keys and unreadable input with the first error", () => {
    expect(() => parseActionInput('{"file": "train.py"}', info("Execute Script"))).toThrow(/Argument mismatch: expected the keys script_name/);
    expect(() => parseActionInput("script_name = train.py", info("Execute Script"))).toThrow(SyntaxError);
    expect(() => matchActionInput('{"a": 1}', info("Execute Script"))).toThrow("Invalid Format");
  });

  it("sanitises as the reference does: backslashes, slashes and newlines inside strings", () => {
    expect(sanitizeJson('{"a": "x\\y/z\nw"}')).toBe('{"a": "x\\\\y\\/z\\nw"}');
    expect(JSON.parse(sanitizeJson('{"a": "x\\y/z\nw"}'))).toEqual({ a: "x\\y/z\nw" });
  });

  it("shows all tools but the reference's hidden ones in the prompt, in the environment's order", () => {
    const names = promptToolNames();
    expect(names).toEqual([
      "List Files",
      "Copy File",
      "Undo Edit Script",
      "Execute Script",
      "Final Answer",
      "Understand File",
      "Inspect Script Lines",
      "Edit Script (AI)",
      "Reflection",
    ]);
    expect(promptToolNames(["Reflection"], ["Read File"])).toEqual([...names.filter((n) => n !== "Reflection"), "Read File"]);
    const prompt = initialPrompt("Make it faster.", names, RESPONSE_ENTRIES);
    expect(prompt).toContain("Research Problem: Make it faster.");
    expect(prompt).toContain("Action: Execute Script\nAction Input: {\n    \"script_name\": [");
    expect(prompt).not.toContain("- Write File:");
    expect(prompt.trimEnd().endsWith("Observation:\n```\nthe result of the action\n```")).toBe(true);
  });
});
