/** A self-contained HTML view of the solution tree: inline SVG, CSS and script; no network needed. */
import type { JournalFile } from "./journal.js";

/** x/y positions of each node: depth downwards, leaves spread left to right in step order. */
export function layoutTree(file: JournalFile): Map<number, { x: number; y: number }> {
  const kids = new Map<number | null, number[]>();
  for (const n of file.nodes) kids.set(n.parentId, [...(kids.get(n.parentId) ?? []), n.id]);
  const pos = new Map<number, { x: number; y: number }>();
  let nextLeaf = 0;
  const place = (id: number, depth: number): number => {
    const children = kids.get(id) ?? [];
    const x = children.length === 0 ? nextLeaf++ : children.map((c) => place(c, depth + 1)).reduce((a, b) => a + b, 0) / children.length;
    pos.set(id, { x, y: depth });
    return x;
  };
  for (const root of kids.get(null) ?? []) place(root, 0);
  return pos;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The HTML page for a journal, titled with the competition id. */
export function treeHtml(file: JournalFile, title: string): string {
  const pos = layoutTree(file);
  const dx = 70;
  const dy = 80;
  const pad = 30;
  const width = Math.max(1, ...[...pos.values()].map((p) => p.x + 1)) * dx + pad;
  const height = Math.max(1, ...[...pos.values()].map((p) => p.y + 1)) * dy + pad;
  const at = (id: number) => {
    const p = pos.get(id)!;
    return { x: pad + p.x * dx, y: pad + p.y * dy };
  };
  const edges = file.nodes
    .filter((n) => n.parentId !== null)
    .map((n) => {
      const a = at(n.parentId!);
      const b = at(n.id);
      return `<line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}"/>`;
    })
    .join("");
  const circles = file.nodes
    .map((n) => {
      const { x, y } = at(n.id);
      const cls = n.id === file.bestId ? "best" : n.isBug ? "bug" : "good";
      const label = n.metric === null ? String(n.id) : `${n.id}: ${Number(n.metric.toPrecision(4))}`;
      return `<g class="node ${cls}" data-id="${n.id}" tabindex="0"><circle cx="${x}" cy="${y}" r="12"/><text x="${x}" y="${y + 28}">${esc(label)}</text></g>`;
    })
    .join("");
  // "<" is escaped so no string in the journal can close the script element.
  const data = JSON.stringify(file).replace(/</g, "\\u003c");
  const direction = file.lowerIsBetter === null ? "unknown" : file.lowerIsBetter ? "lower is better" : "higher is better";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>AIDE tree: ${esc(title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;display:flex;height:100vh}
#tree{flex:1;overflow:auto;border-right:1px solid #ccc}
#detail{flex:1;overflow:auto;padding:1em}
line{stroke:#999;stroke-width:2}
.node circle{stroke:#333;stroke-width:1.5;cursor:pointer}
.node text{font-size:11px;text-anchor:middle}
.good circle{fill:#8fd18f}.bug circle{fill:#f08c8c}.best circle{fill:#f5c542}
.node.sel circle{stroke:#06c;stroke-width:4}
pre{background:#f6f6f6;padding:.6em;white-space:pre-wrap;word-break:break-word}
</style></head><body>
<div id="tree"><p style="margin:.5em 1em">${esc(title)}: ${file.nodes.length} nodes, metric ${direction}; best node: ${file.bestId ?? "none"}. Click a node.</p>
<svg width="${width}" height="${height}">${edges}${circles}</svg></div>
<div id="detail"><p>Select a node to see its plan, code, output and review.</p></div>
<script>
const journal = ${data};
const detail = document.getElementById("detail");
function text(tag, s) { const e = document.createElement(tag); e.textContent = s; return e; }
function show(id) {
  const n = journal.nodes[id];
  document.querySelectorAll(".node").forEach((g) => g.classList.toggle("sel", Number(g.dataset.id) === id));
  detail.replaceChildren(
    text("h2", "Node " + n.id + " (" + n.stage + (n.parentId === null ? "" : ", from node " + n.parentId) + ")"),
    text("p", (n.isBug ? "Buggy" : "Working") + "; metric: " + (n.metric === null ? "none" : n.metric) + "; ran " + n.execTimeS.toFixed(1) + " s" + (n.timedOut ? " (timed out)" : "") + "; exit " + n.exitCode),
    text("h3", "Plan"), text("p", n.plan),
    text("h3", "Review"), text("p", n.analysis),
    text("h3", "Code"), text("pre", n.code),
    text("h3", "Output"), text("pre", n.termOut),
  );
}
document.querySelectorAll(".node").forEach((g) => {
  g.addEventListener("click", () => show(Number(g.dataset.id)));
  g.addEventListener("keydown", (e) => { if (e.key === "Enter") show(Number(g.dataset.id)); });
});
if (journal.bestId !== null) show(journal.bestId);
</script></body></html>
`;
}
