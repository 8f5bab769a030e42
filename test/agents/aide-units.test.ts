import { describe, expect, it } from "vitest";
import { Journal, JournalFileSchema, type JournalNode } from "../../src/agents/aide/journal.js";
import { draftPrompt, debugPrompt, humanDuration, improvePrompt, renderSections, type PromptContext } from "../../src/agents/aide/prompts.js";
import { codeBlocks, extractSolution, planText, trimOutput } from "../../src/agents/aide/response.js";
import { judgeRun, ReviewSchema, unreviewed } from "../../src/agents/aide/review.js";
import { nextStep, seededRng, type SearchRng } from "../../src/agents/aide/search.js";
import { layoutTree, treeHtml } from "../../src/agents/aide/tree-html.js";

function node(id: number, parentId: number | null, journal: Journal, fields: Partial<JournalNode> = {}): JournalNode {
  const n: JournalNode = {
    id,
    parentId,
    stage: journal.stageFor(parentId),
    plan: `plan ${id}`,
    code: `print(${id})`,
    createdAt: "2026-01-01T00:00:00.000Z",
    termOut: "",
    execTimeS: 1,
    exitCode: 0,
    timedOut: false,
    hasSubmission: true,
    analysis: `analysis ${id}`,
    metric: null,
    isBug: true,
    ...fields,
  };
  journal.append(n);
  return n;
}

/** An RNG that hands out scripted values and records the calls. */
function scripted(randoms: number[], belows: number[] = []): SearchRng & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    random: () => {
      calls.push("random");
      const v = randoms.shift();
      if (v === undefined) throw new Error("no random value left");
      return v;
    },
    below: (n) => {
      calls.push(`below(${n})`);
      const v = belows.shift();
      if (v === undefined) throw new Error("no index left");
      return v;
    },
  };
}

const CONFIG = { numDrafts: 2, debugProb: 0.5, maxDebugDepth: 2 };

describe("journal", () => {
  it("derives stages, leaves and debug depth from the tree", () => {
    const j = new Journal();
    node(0, null, j); // buggy draft
    node(1, 0, j); // debug of 0, still buggy
    node(2, 1, j, { isBug: false, metric: 0.7 }); // debug of 1, works
    node(3, 2, j, { isBug: false, metric: 0.8 }); // improve of 2
    expect(j.nodes.map((n) => n.stage)).toEqual(["draft", "debug", "debug", "improve"]);
    expect([0, 1, 2, 3].map((i) => j.debugDepth(i))).toEqual([0, 1, 2, 0]);
    expect([0, 1, 2, 3].map((i) => j.isLeaf(i))).toEqual([false, false, false, true]);
    expect(j.children(0).map((n) => n.id)).toEqual([1]);
    expect(j.drafts().map((n) => n.id)).toEqual([0]);
    expect(j.good().map((n) => n.id)).toEqual([2, 3]);
    expect(j.buggy().map((n) => n.id)).toEqual([0, 1]);
  });

  it("picks the best working node by the fixed direction, the earliest on ties", () => {
    const j = new Journal();
    node(0, null, j, { isBug: false, metric: 0.5 });
    node(1, null, j, { isBug: false, metric: 0.9 });
    node(2, null, j, { isBug: true, metric: null });
    node(3, null, j, { isBug: false, metric: 0.9 });
    expect(j.best()?.id).toBe(1);
    j.lowerIsBetter = true;
    expect(j.best()?.id).toBe(0);
    expect(new Journal().best()).toBeNull();
  });

  it("round-trips through journal.json and refuses a node out of order", () => {
    const j = new Journal();
    node(0, null, j, { isBug: false, metric: 2 });
    j.lowerIsBetter = false;
    const file = JSON.parse(JSON.stringify(j.toJSON()));
    expect(JournalFileSchema.parse(file).bestId).toBe(0);
    const back = Journal.fromJSON(file);
    expect(back.nodes).toEqual(j.nodes);
    expect(back.lowerIsBetter).toBe(false);
    expect(() => back.append({ ...j.nodes[0], id: 5 })).toThrow(/appended at step 1/);
  });

  it("remembers only working nodes", () => {
    const j = new Journal();
    node(0, null, j);
    node(1, null, j, { isBug: false, metric: 0.75, plan: "a forest", analysis: "works well" });
    expect(j.memory()).toBe("Plan: a forest\nFindings: works well\nValidation metric: 0.75");
  });
});

describe("search policy", () => {
  it("drafts until num_drafts drafts exist, without touching the RNG", () => {
    const j = new Journal();
    const rng = scripted([]);
    expect(nextStep(j, CONFIG, rng)).toEqual({ action: "draft" });
    node(0, null, j, { isBug: false, metric: 1 });
    expect(nextStep(j, CONFIG, rng).action).toBe("draft");
    expect(rng.calls).toEqual([]);
  });

  it("debugs a buggy leaf when the coin says so, choosing among candidates with the RNG", () => {
    const j = new Journal();
    node(0, null, j);
    node(1, null, j, { isBug: false, metric: 0.6 });
    node(2, 0, j); // buggy debug leaf; 0 is no longer a leaf
    node(3, null, j); // buggy draft leaf
    const rng = scripted([0.49], [1]);
    const d = nextStep(j, CONFIG, rng);
    expect(d.action).toBe("debug");
    expect(d.action !== "draft" && d.parent.id).toBe(3);
    expect(rng.calls).toEqual(["random", "below(2)"]);
  });

  it("improves the best node when the coin says not to debug", () => {
    const j = new Journal();
    node(0, null, j);
    node(1, null, j, { isBug: false, metric: 0.6 });
    node(2, null, j, { isBug: false, metric: 0.8 });
    const d = nextStep(j, CONFIG, scripted([0.5]));
    expect(d).toMatchObject({ action: "improve", parent: { id: 2 } });
  });

  it("skips debug chains deeper than max_debug_depth, then drafts when nothing works", () => {
    const j = new Journal();
    node(0, null, j);
    node(1, 0, j);
    node(2, 1, j);
    node(3, 2, j); // depth 3 > 2
    node(4, null, j, { isBug: true });
    node(5, 4, j); // depth 1: debuggable
    expect(j.debugDepth(3)).toBe(3);
    expect(nextStep(j, CONFIG, scripted([0.1], [0]))).toMatchObject({ action: "debug", parent: { id: 5 } });
    j.nodes[5].isBug = false;
    j.nodes[5].metric = 0.3;
    expect(nextStep(j, CONFIG, scripted([0.1]))).toMatchObject({ action: "improve", parent: { id: 5 } });
    j.nodes[5].isBug = true;
    j.nodes[5].metric = null;
    node(6, 5, j);
    node(7, 6, j); // depth 3; no candidate is left
    expect(nextStep(j, CONFIG, scripted([0.1]))).toEqual({ action: "draft" });
  });

  it("the seeded RNG is Python's random with the run's seed", () => {
    const rng = seededRng(0);
    expect(rng.random()).toBe(0.8444218515250481);
    expect(rng.random()).toBe(0.7579544029403025);
    // random.seed(1); random.choice(range(10)) == 2
    expect(seededRng(1).below(10)).toBe(2);
  });
});

describe("response parsing", () => {
  const ok = async (code: string) => !code.includes("def (");

  it("takes the plan before the first fence and joins the parseable python blocks", async () => {
    const text = "Fit a forest.\n\n```python\nimport os\n```\nthen\n```\nprint(1)\n```\n```py\ndef (:\n```";
    expect(codeBlocks(text)).toEqual(["import os", "print(1)", "def (:"]);
    expect(planText(text)).toBe("Fit a forest.");
    expect(await extractSolution(text, ok)).toEqual({ plan: "Fit a forest.", code: "import os\n\nprint(1)" });
  });

  it("skips blocks tagged with another language", () => {
    expect(codeBlocks("Run it.\n```bash\nls\n```\n```python3\nprint(2)\n```\n```Python\nx = 1\n```")).toEqual(["print(2)", "x = 1"]);
  });

  it("takes an unfenced answer whole as code but finds no plan in it", async () => {
    expect(codeBlocks("print(1)\n")).toEqual(["print(1)"]);
    expect(await extractSolution("print(1)", ok)).toBeNull();
  });

  it("rejects answers without code, with only broken code, or with an unclosed fence", async () => {
    expect(await extractSolution("I cannot help with that.", ok)).toBeNull();
    expect(await extractSolution("Plan.\n```python\ndef (:\n```", ok)).toBeNull();
    expect(codeBlocks("Plan.\n```python\nprint(1)")).toEqual([]);
    expect(codeBlocks("")).toEqual([]);
  });

  it("keeps the head and tail of long output", () => {
    expect(trimOutput("abc", 5, 2)).toBe("abc");
    expect(trimOutput("abcdefghij", 5, 2)).toBe("ab\n ... [6 characters left out] ... \nij");
  });
});

describe("review", () => {
  const review = { is_bug: false, summary: "fine", metric: 3, lower_is_better: true };
  const ran = { exitCode: 0, timedOut: false, hasSubmission: true };

  it("accepts an integer metric and null, rejects strings and missing fields", () => {
    expect(ReviewSchema.parse(review).metric).toBe(3);
    expect(ReviewSchema.parse({ ...review, metric: null }).metric).toBeNull();
    expect(ReviewSchema.safeParse({ ...review, metric: "0.8" }).success).toBe(false);
    expect(ReviewSchema.safeParse({ is_bug: false, summary: "x", metric: 1 }).success).toBe(false);
  });

  it("fixes the metric direction once, from the first working node", () => {
    const j = new Journal();
    expect(judgeRun(j, { ...review, is_bug: true, lower_is_better: false }, ran).isBug).toBe(true);
    expect(j.lowerIsBetter).toBeNull();
    expect(judgeRun(j, review, ran)).toEqual({ isBug: false, metric: 3, analysis: "fine" });
    expect(j.lowerIsBetter).toBe(true);
    judgeRun(j, { ...review, lower_is_better: false }, ran);
    expect(j.lowerIsBetter).toBe(true);
  });

  it("a failed run, a timeout, a missing submission or metric is a bug whatever the review says", () => {
    const j = new Journal();
    expect(judgeRun(j, review, { ...ran, exitCode: 1 })).toEqual({ isBug: true, metric: null, analysis: "fine The run exited with status 1." });
    expect(judgeRun(j, review, { ...ran, exitCode: null, timedOut: true }).analysis).toContain("time limit");
    expect(judgeRun(j, review, { ...ran, hasSubmission: false }).analysis).toContain("did not write submission/submission.csv");
    expect(judgeRun(j, { ...review, metric: null }, ran).isBug).toBe(true);
    expect(j.lowerIsBetter).toBeNull();
    expect(unreviewed("no answer")).toEqual({ isBug: true, metric: null, analysis: "The review failed: no answer" });
  });
});

describe("prompts", () => {
  const ctx: PromptContext = {
    task: "Predict y.",
    dataDir: "/home/data",
    preview: "train.csv (3 lines)",
    memory: "",
    execTimeoutS: 600,
    stepsLeft: 4,
    totalSteps: 10,
    secondsLeft: 3725,
  };

  it("render nested sections as markdown", () => {
    expect(renderSections({ A: "x", B: ["p", "q"], C: { D: "y" } })).toBe("# A\n\nx\n\n# B\n\n- p\n- q\n\n# C\n\n## D\n\ny");
  });

  it("tell the model the task, the budget, the data and where the submission goes", () => {
    const p = draftPrompt(ctx);
    expect(p).toContain("# Task\n\nPredict y.");
    expect(p).toContain("one of 4 remaining steps (of 10); 1h 2m of wall-clock time left");
    expect(p).toContain("at most 10m 0s");
    expect(p).toContain("# Data overview\n\ntrain.csv (3 lines)");
    expect(p).toContain("`./submission/submission.csv`");
    expect(p).toContain("# Earlier solutions\n\nNone yet.");
    expect(improvePrompt(ctx, "print(2)")).toContain("```python\nprint(2)\n```");
    const d = debugPrompt(ctx, "boom()", "NameError: boom", "call something real");
    expect(d).toContain("```\nNameError: boom\n```");
    expect(d).toContain("call something real");
    expect(draftPrompt({ ...ctx, secondsLeft: null })).toContain("no overall time limit");
    expect(humanDuration(42)).toBe("42s");
  });
});

describe("tree view", () => {
  it("lays out the tree and embeds the journal without a way to close the script", () => {
    const j = new Journal();
    node(0, null, j, { isBug: false, metric: 0.5 });
    node(1, 0, j, { isBug: false, metric: 0.6, code: "print('</script><b>')" });
    node(2, 0, j);
    node(3, null, j);
    const pos = layoutTree(j.toJSON());
    expect([...pos.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [0, { x: 0.5, y: 0 }],
      [1, { x: 0, y: 1 }],
      [2, { x: 1, y: 1 }],
      [3, { x: 2, y: 0 }],
    ]);
    const html = treeHtml(j.toJSON(), "demo");
    expect(html).not.toContain("</script><b>");
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=/);
    expect(html.match(/class="node /g)).toHaveLength(4);
    expect(html).toContain('class="node best" data-id="1"');
  });
});
