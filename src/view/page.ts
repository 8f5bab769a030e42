/**
 * The viewer's page and script. Everything the page shows goes in as text (textContent), never as
 * markup, since run data is the agent's; the page loads nothing from outside its own server.
 */

/** The single page; its script is /app.js (the Content-Security-Policy allows no inline script). */
export const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mlebench view</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: 0.6em; white-space: pre-wrap; word-break: break-all; max-height: 40em; overflow: auto; }
a { color: #0645ad; cursor: pointer; }
.medal { color: #9a6b00; font-weight: bold; }
.bad { color: #a00; }
.flagged { background: #fff0f0; }
.harness { color: #555; font-style: italic; }
nav { margin-bottom: 1em; }
.tree li { list-style: none; margin: 0.15em 0; }
.best { font-weight: bold; }
pre.diff span { display: block; }
pre.diff .add { background: #e6ffec; }
pre.diff .del { background: #ffebe9; }
pre.diff .hunk { color: #6639ba; }
form { margin: 0.5em 0; }
</style>
</head>
<body>
<nav id="crumbs"></nav>
<main id="main">loading…</main>
<script src="/app.js"></script>
</body>
</html>
`;

/**
 * The page's script. Routes (after #): /, /g/<group>, /g/<group>/r/<run>, and under a run llm/<n>,
 * node/<id>, step/<k>, code/<ref>; /diff?…, /compare, /search?….
 */
export const SCRIPT = `"use strict";
const token = new URLSearchParams(location.search).get("token");
const api = (p) => fetch(p + (token ? (p.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : "")).then((r) => {
  if (!r.ok) return r.json().then((j) => { throw new Error(j.error || r.statusText); });
  return r.json();
});
// Control characters (ANSI escapes, bells, backspaces) are shown as their Unicode pictures, so a log reads as what it holds.
const visible = (s) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (c) => String.fromCharCode(0x2400 + c.charCodeAt(0))).replace(/\u007f/g, "\u2421");
const el = (tag, attrs, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(k == null ? "" : visible(String(k))));
  return e;
};
const link = (text, hash) => el("a", { href: "#" + hash }, text);
const table = (head, rows, attrs) => el("table", attrs || {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c))))));
const facts = (pairs) => table(["", ""], pairs.filter((p) => p[1] !== undefined));
const q = (o) => Object.entries(o).filter(([, v]) => v != null && v !== "").map(([k, v]) => k + "=" + encodeURIComponent(v)).join("&");
const runApi = (id, runId) => "/api/groups/" + encodeURIComponent(id) + "/runs/" + encodeURIComponent(runId);
const runHash = (id, runId) => "/g/" + encodeURIComponent(id) + "/r/" + encodeURIComponent(runId);
const main = document.getElementById("main");
const crumbs = document.getElementById("crumbs");
const show = (...nodes) => { main.replaceChildren(...nodes); };
const fmt = (x) => (x == null ? "-" : typeof x === "number" ? String(Math.round(x * 1e5) / 1e5) : String(x));
const pm = (e) => (e && Number.isFinite(e.mean) ? e.mean.toFixed(1) + " ± " + e.sem.toFixed(1) : "-");
const path = (...items) => { crumbs.replaceChildren(...items.flatMap((x, i) => (i ? [" / ", x] : [x]))); };
const home = () => link("run groups", "/");
const groupLink = (id) => link(id, "/g/" + encodeURIComponent(id));
const runLink = (id, runId) => link(runId, runHash(id, runId));
const codeHash = (id, runId, ref) => runHash(id, runId) + "/code/" + ref.split("/").map(encodeURIComponent).join("/");
const medalOf = (r) => (r.medal ? el("span", { class: "medal" }, r.medal) : "-");

function searchForm(values) {
  const input = el("input", { name: "q", id: "search-q", size: "40", placeholder: "e.g. lightgbm, or 429" });
  input.value = (values && values.q) || "";
  const where = el("select", { name: "in", id: "search-in" }, ...["code", "llm", "logs"].map((w) => el("option", { value: w }, w)));
  where.value = (values && values.in) || "code";
  const retried = el("input", { type: "checkbox", id: "search-retried" });
  retried.checked = !!(values && values.retried === "1");
  const form = el("form", { id: "search" }, "Search ", input, " in ", where, " ", el("label", {}, retried, " only retried or failed LLM calls"), " ", el("button", { type: "submit" }, "search"));
  form.onsubmit = (ev) => { ev.preventDefault(); location.hash = "/search?" + q({ q: input.value, in: where.value, retried: retried.checked ? "1" : "" }); };
  return form;
}

function splitTable(report) {
  const cols = [["made_submission", "made"], ["valid_submission", "valid"], ["above_median", "above median"], ["bronze", "bronze"], ["silver", "silver"], ["gold", "gold"], ["any_medal", "any medal"]];
  const rows = [];
  for (const a of report.agents) for (const split of ["low", "medium", "high", "all"]) {
    const s = a.splits[split];
    if (s) rows.push([a.agent, split, s.competitions, a.num_seeds, ...cols.map(([k]) => pm(s.metrics[k]))]);
  }
  return table(["agent", "split", "competitions", "seeds", ...cols.map((c) => c[1] + " (%)")], rows, { id: "paper-table" });
}

function competitionTable(report) {
  const rows = [];
  for (const a of report.agents) for (const r of a.per_competition) {
    rows.push([a.agent, r.competition_id, r.seed, r.run ? runLink(r.run.group, r.run.run_id) : "-", fmt(r.score), fmt(r.bronze_threshold), fmt(r.silver_threshold), fmt(r.gold_threshold), medalOf(r), r.valid_submission ? "yes" : "no", r.disqualified_reason ? "disqualified: " + r.disqualified_reason : ""]);
  }
  return table(["agent", "competition", "seed", "run", "score", "bronze", "silver", "gold", "medal", "valid", "note"], rows, { id: "competition-table" });
}

async function reportSection(groupIds) {
  const out = [];
  try {
    const report = await api("/api/report" + (groupIds ? "?groups=" + groupIds.map(encodeURIComponent).join(",") : ""));
    out.push(el("h2", {}, "The paper's table"), el("p", {}, "Mean ± SEM over seeds, per complexity split."), splitTable(report), el("h2", {}, "Per competition"), competitionTable(report));
    for (const w of report.warnings) out.push(el("p", { class: "bad" }, "warning: " + w));
  } catch (e) {
    out.push(el("p", { class: "harness" }, "No report: " + e.message));
  }
  return out;
}

async function groups() {
  path("run groups");
  const gs = await api("/api/groups");
  const out = [el("h1", {}, "Run groups"), searchForm(), el("p", {}, link("compare two runs' code", "/compare")),
    table(["group", "kind", "agent", "runs", "completed", "medals / competent"], gs.map((g) => [groupLink(g.id), g.kind, g.agent_id, g.totals.runs, g.totals.completed, g.totals.medals]), { id: "groups" })];
  if (gs.some((g) => g.kind === "mle")) out.push(...(await reportSection(null)));
  show(...out);
}

async function group(id) {
  const g = await api("/api/groups/" + encodeURIComponent(id));
  path(home(), g.run_group);
  const research = g.kind === "research";
  const out = [el("h1", {}, g.run_group), el("p", {}, (research ? "research group" : "run group") + ", agent " + g.agent_id + ", " + g.totals.medals + (research ? " competent in " : " medals in ") + g.totals.graded + (research ? " evaluated runs" : " graded runs")),
    table(["run", research ? "task" : "competition", "seed", "status", research ? "stop" : "exit", "wall (s)", research ? "improvement" : "score", research ? "competent" : "medal"],
      g.runs.map((r) => [runLink(id, r.run_id), r.competition_id, r.seed, r.status, fmt(r.exit_reason), fmt(r.wall_seconds), fmt(r.score), r.any_medal ? el("span", { class: "medal" }, research ? "yes" : "medal") : r.any_medal === false ? "no" : "-"]), { id: "runs" })];
  if (!research) out.push(...(await reportSection([id])));
  show(...out);
}

function logSection(id, runId, l) {
  const pre = el("pre", { id: "log-" + l.name.replace("/", "-") });
  const more = el("button", {}, "more");
  let next = 0;
  const page = async () => {
    const part = await api(runApi(id, runId) + "/logs/" + encodeURIComponent(l.name) + "?offset=" + next);
    pre.append(document.createTextNode(visible(part.text)));
    next = part.next_offset;
    more.hidden = next == null;
  };
  more.onclick = page;
  page();
  return [el("h2", {}, "logs/" + l.name + " (" + l.bytes + " bytes)"), pre, more];
}

function refLink(id, runId, ref) {
  if (!ref) return null;
  const [kind, n] = ref.split("/");
  if (kind === "llm" || kind === "node" || kind === "step") return link(ref, runHash(id, runId) + "/" + kind + "/" + n);
  return null;
}

async function run(id, runId) {
  const base = runApi(id, runId);
  const r = await api(base);
  path(home(), groupLink(id), runId);
  const rec = r.record || {};
  const research = r.kind === "research";
  const peaks = rec.peaks || {};
  const out = [el("h1", {}, runId)];
  const rows = [["group", groupLink(id)], [research ? "task" : "competition", r.competition_id], ["seed", r.seed], ["status", fmt(rec.status)], ["wall (s)", fmt(rec.wall_seconds)]];
  if (research) {
    const ev = r.grading_report || {};
    rows.push(["stop", fmt(rec.stop)], ["steps", fmt(rec.steps)], ["final answer", fmt(rec.final_answer)], ["error", fmt(rec.error)], ["baseline", fmt(ev.baseline)], ["final score", fmt(ev.final_score)], ["improvement", fmt(ev.improvement)], ["competent (≥ 10%)", ev.success ? (ev.success["10"] ? "yes" : "no") : "-"]);
  } else {
    rows.push(["exit reason", fmt(rec.exit_reason)], ["exit code", fmt(rec.exit_code)], ["score", fmt(rec.grading && rec.grading.score)], ["medal", rec.grading ? (rec.grading.any_medal ? "yes" : "no") : "-"],
      ["sandbox", rec.sandbox ? rec.sandbox.backend : "-"], ["peak memory (bytes)", fmt(peaks.memoryBytes)], ["peak processes", fmt(peaks.pids)], ["peak disk (bytes)", fmt(peaks.diskBytes)], ["CPU (s)", fmt(peaks.cpuSeconds)],
      ["out-of-memory kills", fmt(peaks.oomKills)], ["validation calls", fmt(rec.validation_requests)], ["submission set aside", fmt(rec.submission_rejected)]);
  }
  out.push(facts(rows));
  const integ = r.integrity || { flags: [] };
  if (integ.disqualified || integ.flags.length || integ.problem) {
    out.push(el("h2", {}, "Integrity"));
    if (integ.disqualified) out.push(el("p", { class: "bad", id: "disqualified" }, "disqualified: " + integ.disqualified.reasons.join("; ")));
    if (integ.problem) out.push(el("p", { class: "bad" }, integ.problem));
    if (integ.flags.length) out.push(table(["check", "flagged", "reason"], integ.flags.map((f) => [f.check, f.flagged ? "yes" : "no", f.reason]), { id: "integrity" }));
  }
  const tl = await api(base + "/timeline");
  out.push(el("h2", {}, "Timeline (" + tl.events.length + " events" + (tl.truncated ? ", more left out" : "") + ")"),
    table(["t (s)", "time", "what", ""], tl.events.map((e) => [fmt(e.t), e.time, e.label, refLink(id, runId, e.ref) || ""]), { id: "timeline" }));
  if (!research) {
    const aide = await api(base + "/aide");
    if (aide) {
      const list = el("ul", { class: "tree", id: "aide-tree" }, ...aide.nodes.map((n) => el("li", { style: "margin-left:" + (n.depth * 1.5) + "em", class: n.id === aide.best_id ? "best" : "" },
        link("node " + n.id, runHash(id, runId) + "/node/" + n.id), " " + n.stage + ": " + (n.is_bug ? "buggy" : "metric " + fmt(n.metric)) + (n.id === aide.best_id ? " (best)" : "") + ", " + fmt(n.exec_time_s) + " s")));
      out.push(el("h2", {}, "AIDE solution tree (" + aide.nodes.length + " nodes, " + (aide.lower_is_better == null ? "direction unknown" : aide.lower_is_better ? "lower is better" : "higher is better") + ")"), list);
    }
    const snaps = await api(base + "/snapshots");
    if (snaps.length) {
      out.push(el("h2", {}, "Snapshots"), el("p", { class: "harness" }, "Scores graded here by the harness, against the answers; the agent never saw them."),
        table(["t (s)", "file", "would-be score", "valid", "medal", "note"], snaps.map((s) => [fmt(s.elapsed_seconds), s.file, fmt(s.score), s.valid == null ? "-" : s.valid ? "yes" : "no", s.medal ? el("span", { class: "medal" }, s.medal) : "-", fmt(s.note)]), { id: "snapshots" }));
    }
  }
  const steps = await api(base + "/steps");
  if (steps) {
    out.push(el("h2", {}, "Steps (" + steps.length + ")"), table(["step", "action", "time (s)", "changed"], steps.map((s) => [link("step " + s.step, runHash(id, runId) + "/step/" + s.step), s.action, fmt(s.seconds), s.changed.join(", ")]), { id: "steps" }));
  }
  const code = await api(base + "/code");
  if (code.versions.length) {
    out.push(el("h2", {}, "Code (" + code.versions.length + " versions)"), table(["version", "bytes"], code.versions.map((v) => [link(v.label, codeHash(id, runId, v.ref)), v.bytes]), { id: "code" }));
  }
  if (r.logs.some((l) => l.name === "llm.jsonl")) {
    const calls = await api(base + "/llm?from=0");
    out.push(el("h2", {}, "LLM calls (" + calls.total + ")"),
      table(["#", "time", "model", "tokens in", "tokens out", "cost (USD)", "latency (ms)", "attempts", "error", "last message"], calls.calls.map((c) => [
        link(String(c.index), runHash(id, runId) + "/llm/" + c.index), fmt(c.time), fmt(c.model), fmt(c.input_tokens), fmt(c.output_tokens), fmt(c.cost_usd), fmt(c.latency_ms), fmt(c.attempts), fmt(c.error), fmt(c.last_message)]), { id: "llm-calls" }));
  }
  // The call log, journal, tree and best solution are shown above in their own form.
  for (const l of r.logs) if (!["llm.jsonl", "journal.json", "tree.html", "best_solution.py"].includes(l.name)) out.push(...logSection(id, runId, l));
  show(...out);
}

async function call(id, runId, n) {
  const c = await api(runApi(id, runId) + "/llm/" + encodeURIComponent(n));
  const e = c.entry;
  path(home(), groupLink(id), runLink(id, runId), "LLM call " + n);
  const usage = e.usage || {};
  const out = [el("h1", {}, "LLM call " + n), facts([["time", fmt(e.time)], ["model", fmt(e.model)], ["tokens in", fmt(usage.inputTokens)], ["tokens out", fmt(usage.outputTokens)],
    ["cached tokens in", fmt(usage.cachedInputTokens)], ["cost (USD)", fmt(e.costUsd)], ["latency (ms)", fmt(e.latencyMs)], ["attempts", fmt(e.attempts)], ["error", fmt(e.error)]])];
  const messages = (e.request && e.request.messages) || [];
  out.push(el("h2", {}, "Prompt (" + messages.length + " messages)"));
  messages.forEach((m, i) => out.push(el("h3", {}, (i + 1) + ". " + m.role), el("pre", { class: "message" }, typeof m.content === "string" ? m.content : JSON.stringify(m.content, null, 2))));
  out.push(el("h2", {}, "Completion"));
  if (e.response) {
    out.push(el("pre", { id: "completion" }, e.response.text || ""));
    if (e.response.toolCalls && e.response.toolCalls.length) out.push(el("h3", {}, "Tool calls"), el("pre", { id: "tool-calls" }, JSON.stringify(e.response.toolCalls, null, 2)));
  } else out.push(el("p", {}, "no response" + (e.error ? ": " + e.error : "")));
  show(...out);
}

function diffView(d) {
  const pre = el("pre", { class: "diff", id: "diff" });
  for (const line of d.diff.split("\\n")) {
    if (line === "") continue;
    const cls = line.startsWith("+++") || line.startsWith("---") ? "" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : "";
    pre.append(el("span", cls ? { class: cls } : {}, line));
  }
  return [el("p", { id: "diff-summary" }, d.a + " → " + d.b + ": " + d.added + " lines added, " + d.removed + " removed" + (d.capped ? " (" + d.capped + ")" : "")), d.diff ? pre : el("p", {}, "no difference")];
}

async function node(id, runId, n) {
  const aide = await api(runApi(id, runId) + "/aide");
  const x = aide && aide.nodes.find((v) => String(v.id) === String(n));
  if (!x) throw new Error("this run has no AIDE node " + n);
  path(home(), groupLink(id), runLink(id, runId), "node " + n);
  const code = await api(runApi(id, runId) + "/code/aide/" + n);
  const out = [el("h1", {}, "AIDE node " + n + (x.id === aide.best_id ? " (best)" : "")),
    facts([["stage", x.stage], ["parent", x.parent_id == null ? "-" : link("node " + x.parent_id, runHash(id, runId) + "/node/" + x.parent_id)], ["metric", fmt(x.metric)], ["buggy", x.is_bug ? "yes" : "no"], ["exit code", fmt(x.exit_code)], ["timed out", x.timed_out ? "yes" : "no"], ["run time (s)", fmt(x.exec_time_s)], ["made a submission", x.has_submission ? "yes" : "no"], ["created", fmt(x.created_at)]]),
    el("h2", {}, "Plan"), el("pre", { id: "plan" }, x.plan), el("h2", {}, "Code"), el("pre", { id: "code-text" }, code.text), el("h2", {}, "Output"), el("pre", { id: "term-out" }, x.term_out), el("h2", {}, "Review"), el("pre", { id: "analysis" }, x.analysis)];
  if (code.previous) {
    const d = await api("/api/diff?" + q({ ag: id, ar: runId, aref: "aide/" + n }));
    out.push(el("h2", {}, "Change from node " + x.parent_id), ...diffView(d));
  }
  show(...out);
}

async function step(id, runId, k) {
  const steps = await api(runApi(id, runId) + "/steps");
  const s = steps && steps.find((v) => String(v.step) === String(k));
  if (!s) throw new Error("this run has no step " + k);
  path(home(), groupLink(id), runLink(id, runId), "step " + k);
  const out = [el("h1", {}, "Step " + k + ": " + s.action), facts([["started", fmt(s.started)], ["ended", fmt(s.ended)], ["seconds", fmt(s.seconds)], ["deleted", s.deleted.join(", ") || "-"]])];
  for (const [name, text] of Object.entries(s.reasoning)) out.push(el("h2", {}, name), el("pre", { class: "reasoning" }, text));
  out.push(el("h2", {}, "Action input"), el("pre", { id: "action-args" }, s.args), el("h2", {}, "Observation"), el("pre", { id: "observation" }, s.observation));
  if (s.changed.length) out.push(el("h2", {}, "Files changed"), el("ul", {}, ...s.changed.map((f) => el("li", {}, link(f, codeHash(id, runId, "step/" + k + "/" + f))))));
  show(...out);
}

async function codeVersion(id, runId, ref) {
  const c = await api(runApi(id, runId) + "/code/" + ref.split("/").map(encodeURIComponent).join("/"));
  path(home(), groupLink(id), runLink(id, runId), ref);
  const out = [el("h1", {}, ref)];
  if (c.previous) {
    const d = await api("/api/diff?" + q({ ag: id, ar: runId, aref: ref }));
    out.push(el("h2", {}, "Change from " + c.previous), ...diffView(d));
  }
  out.push(el("h2", {}, "Code"), el("pre", { id: "code-text" }, c.text));
  show(...out);
}

async function diffPage(params) {
  path(home(), link("compare", "/compare"), "diff");
  const d = await api("/api/diff?" + q(params));
  show(el("h1", {}, "Diff"), ...diffView(d));
}

async function compare() {
  path(home(), "compare");
  const gs = await api("/api/groups");
  const runs = [];
  for (const g of gs) for (const r of (await api("/api/groups/" + encodeURIComponent(g.id))).runs) runs.push([g.id, r.run_id]);
  const pick = (name, i) => {
    const s = el("select", { id: name }, ...runs.map(([g, r], j) => el("option", { value: String(j) }, g + " / " + r)));
    s.value = String(Math.min(i, runs.length - 1));
    return s;
  };
  const a = pick("compare-a", 1);
  const b = pick("compare-b", 0);
  const form = el("form", { id: "compare" }, "Final code of ", b, " against ", a, " ", el("button", { type: "submit" }, "diff"));
  form.onsubmit = (ev) => {
    ev.preventDefault();
    const [ag, ar] = runs[Number(a.value)];
    const [bg, br] = runs[Number(b.value)];
    location.hash = "/diff?" + q({ ag, ar, bg, br });
  };
  show(el("h1", {}, "Compare two runs' final code"), form);
}

async function search(params) {
  path(home(), "search");
  const res = await api("/api/search?" + q({ q: params.q, in: params.in, retried: params.retried }));
  const where = (h) => {
    if (h.where.startsWith("llm/")) return link(h.where, runHash(h.group, h.run_id) + "/" + h.where);
    if (h.where.startsWith("logs/")) return h.where;
    return link(h.where, codeHash(h.group, h.run_id, h.where));
  };
  show(el("h1", {}, "Search"), searchForm(params),
    el("p", { id: "search-summary" }, res.hits.length + " hits in " + res.runs_matched + " runs" + (res.truncated ? " (more left out)" : "") + "; " + res.scanned.runs + " runs, " + res.scanned.files + " files scanned"),
    table(["group", "run", "where", "line", "text"], res.hits.map((h) => [groupLink(h.group), runLink(h.group, h.run_id), where(h), fmt(h.line), h.excerpt]), { id: "search-hits" }));
}

async function route() {
  const raw = location.hash.replace(/^#\\/?/, "");
  const qi = raw.indexOf("?");
  const params = Object.fromEntries(new URLSearchParams(qi < 0 ? "" : raw.slice(qi + 1)));
  const parts = (qi < 0 ? raw : raw.slice(0, qi)).split("/").filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === "g" && parts[2] === "r" && parts[4] === "llm") await call(parts[1], parts[3], parts[5]);
    else if (parts[0] === "g" && parts[2] === "r" && parts[4] === "node") await node(parts[1], parts[3], parts[5]);
    else if (parts[0] === "g" && parts[2] === "r" && parts[4] === "step") await step(parts[1], parts[3], parts[5]);
    else if (parts[0] === "g" && parts[2] === "r" && parts[4] === "code") await codeVersion(parts[1], parts[3], parts.slice(5).join("/"));
    else if (parts[0] === "g" && parts[2] === "r") await run(parts[1], parts[3]);
    else if (parts[0] === "g") await group(parts[1]);
    else if (parts[0] === "diff") await diffPage(params);
    else if (parts[0] === "compare") await compare();
    else if (parts[0] === "search") await search(params);
    else await groups();
  } catch (e) {
    show(el("p", { class: "error" }, "error: " + e.message));
  }
}
window.addEventListener("hashchange", route);
route();
`;
