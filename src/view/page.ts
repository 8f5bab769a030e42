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
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f3f3f3; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: 0.6em; white-space: pre-wrap; word-break: break-all; max-height: 40em; overflow: auto; }
a { color: #0645ad; cursor: pointer; }
.medal { color: #9a6b00; font-weight: bold; }
nav { margin-bottom: 1em; }
</style>
</head>
<body>
<nav id="crumbs"></nav>
<main id="main">loading…</main>
<script src="/app.js"></script>
</body>
</html>
`;

/** The page's script: hash routes #/, #/g/<group>, #/g/<group>/r/<run>, #/g/<group>/r/<run>/llm/<n>. */
export const SCRIPT = `"use strict";
const token = new URLSearchParams(location.search).get("token");
const api = (p) => fetch(p + (token ? (p.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : "")).then((r) => {
  if (!r.ok) return r.json().then((j) => { throw new Error(j.error || r.statusText); });
  return r.json();
});
const el = (tag, attrs, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(k == null ? "" : String(k)));
  return e;
};
const link = (text, hash) => { const a = el("a", { href: "#" + hash }, text); return a; };
const table = (head, rows) => el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c))))));
const base = (id, runId) => "/api/groups/" + encodeURIComponent(id) + "/runs/" + encodeURIComponent(runId);
const main = document.getElementById("main");
const crumbs = document.getElementById("crumbs");
const show = (...nodes) => { main.replaceChildren(...nodes); };
const fmt = (x) => (x == null ? "-" : typeof x === "number" ? String(Math.round(x * 1e5) / 1e5) : String(x));

async function groups() {
  crumbs.replaceChildren("run groups");
  const gs = await api("/api/groups");
  show(el("h1", {}, "Run groups"), table(["group", "agent", "runs", "completed", "medals"], gs.map((g) => [link(g.run_group, "/g/" + g.id), g.agent_id, g.totals.runs, g.totals.completed, g.totals.medals])));
}

async function group(id) {
  const g = await api("/api/groups/" + encodeURIComponent(id));
  crumbs.replaceChildren(link("run groups", "/"), " / ", g.run_group);
  show(el("h1", {}, g.run_group), el("p", {}, "agent " + g.agent_id + ", " + g.totals.medals + " medals in " + g.totals.graded + " graded runs"),
    table(["run", "competition", "seed", "status", "exit", "wall (s)", "score", "medal"], g.runs.map((r) => [link(r.run_id, "/g/" + id + "/r/" + r.run_id), r.competition_id, r.seed, r.status, fmt(r.exit_reason), fmt(r.wall_seconds), fmt(r.score), r.any_medal ? el("span", { class: "medal" }, "medal") : "-"])));
}

async function run(id, runId) {
  const r = await api(base(id, runId));
  crumbs.replaceChildren(link("run groups", "/"), " / ", link(id, "/g/" + id), " / ", runId);
  const rec = r.record || {};
  const facts = [["competition", r.competition_id], ["seed", r.seed], ["status", rec.status], ["exit reason", rec.exit_reason], ["wall (s)", fmt(rec.wall_seconds)], ["score", fmt(rec.grading && rec.grading.score)], ["medal", rec.grading ? (rec.grading.any_medal ? "yes" : "no") : "-"]];
  const out = [el("h1", {}, runId), table(["", ""], facts)];
  if (r.logs.some((l) => l.name === "llm.jsonl")) {
    const calls = await api(base(id, runId) + "/llm?from=0");
    out.push(el("h2", {}, "LLM calls (" + calls.total + ")"),
      table(["#", "time", "model", "tokens in", "tokens out", "cost (USD)", "latency (ms)", "error", "last message"], calls.calls.map((c) => [
        link(String(c.index), "/g/" + id + "/r/" + runId + "/llm/" + c.index), fmt(c.time), fmt(c.model), fmt(c.input_tokens), fmt(c.output_tokens), fmt(c.cost_usd), fmt(c.latency_ms), fmt(c.error), fmt(c.last_message)])));
  }
  for (const l of r.logs) {
    const pre = el("pre", { id: "log-" + l.name });
    const more = el("button", {}, "more");
    let next = 0;
    const page = async () => {
      const part = await api(base(id, runId) + "/logs/" + l.name + "?offset=" + next);
      pre.append(document.createTextNode(part.text));
      next = part.next_offset;
      more.hidden = next == null;
    };
    more.onclick = page;
    out.push(el("h2", {}, "logs/" + l.name + " (" + l.bytes + " bytes)"), pre, more);
    page();
  }
  show(...out);
}

async function call(id, runId, n) {
  const c = await api(base(id, runId) + "/llm/" + encodeURIComponent(n));
  const e = c.entry;
  crumbs.replaceChildren(link("run groups", "/"), " / ", link(id, "/g/" + id), " / ", link(runId, "/g/" + id + "/r/" + runId), " / LLM call " + n);
  const usage = e.usage || {};
  const out = [el("h1", {}, "LLM call " + n), table(["", ""], [["time", fmt(e.time)], ["model", fmt(e.model)], ["tokens in", fmt(usage.inputTokens)], ["tokens out", fmt(usage.outputTokens)],
    ["cached tokens in", fmt(usage.cachedInputTokens)], ["cost (USD)", fmt(e.costUsd)], ["latency (ms)", fmt(e.latencyMs)], ["attempts", fmt(e.attempts)], ["error", fmt(e.error)]])];
  const messages = (e.request && e.request.messages) || [];
  out.push(el("h2", {}, "Prompt (" + messages.length + " messages)"));
  messages.forEach((m, i) => out.push(el("h3", {}, (i + 1) + ". " + m.role), el("pre", { class: "message" }, typeof m.content === "string" ? m.content : JSON.stringify(m.content, null, 2))));
  out.push(el("h2", {}, "Completion"));
  if (e.response) {
    out.push(el("pre", { id: "completion" }, e.response.text || ""));
    if (e.response.toolCalls && e.response.toolCalls.length) out.push(el("h3", {}, "Tool calls"), el("pre", {}, JSON.stringify(e.response.toolCalls, null, 2)));
  } else out.push(el("p", {}, "no response" + (e.error ? ": " + e.error : "")));
  show(...out);
}

async function route() {
  const parts = location.hash.replace(/^#\\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === "g" && parts[2] === "r" && parts[4] === "llm") await call(parts[1], parts[3], parts[5]);
    else if (parts[0] === "g" && parts[2] === "r") await run(parts[1], parts[3]);
    else if (parts[0] === "g") await group(parts[1]);
    else await groups();
  } catch (e) {
    show(el("p", { class: "error" }, "error: " + e.message));
  }
}
window.addEventListener("hashchange", route);
route();
`;
