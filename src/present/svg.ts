/** Small SVG charts drawn as strings: no browser, no network, the same bytes for the same data. */

const PALETTE = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#eeca3b", "#9d755d"];

/** Colour of the i-th series. */
export function colour(i: number): string {
  return PALETTE[i % PALETTE.length];
}

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const f = (x: number) => (Math.round(x * 10) / 10).toString();

/** A nice upper bound for an axis. */
function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function legend(names: string[], x: number, y: number): string {
  return names
    .map((n, i) => `<g transform="translate(${x + i * 140},${y})"><rect width="12" height="12" fill="${colour(i)}"/><text x="16" y="10" font-size="12">${esc(n)}</text></g>`)
    .join("");
}

function yAxis(x: number, top: number, h: number, w: number, max: number, label: string): string {
  let s = `<line x1="${x}" y1="${top}" x2="${x}" y2="${top + h}" stroke="#333"/>`;
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    const y = top + h - (h * i) / 4;
    s += `<line x1="${x - 4}" y1="${f(y)}" x2="${x}" y2="${f(y)}" stroke="#333"/><text x="${x - 6}" y="${f(y + 4)}" font-size="11" text-anchor="end">${f(v)}</text>`;
    if (i > 0) s += `<line x1="${x}" y1="${f(y)}" x2="${x + w}" y2="${f(y)}" stroke="#eee"/>`;
  }
  return s + `<text transform="translate(14,${top + h / 2}) rotate(-90)" font-size="12" text-anchor="middle">${esc(label)}</text>`;
}

/** Grouped bars (one group per category, one bar per series) with ± error bars. */
export function barChart(opts: {
  id: string;
  title: string;
  yLabel: string;
  categories: string[];
  series: { name: string; values: ({ value: number; err: number } | null)[] }[];
}): string {
  const W = 640, H = 300, L = 56, T = 30, B = 50, R = 16;
  const w = W - L - R, h = H - T - B;
  const max = niceMax(Math.max(1, ...opts.series.flatMap((s) => s.values.map((v) => (v ? v.value + v.err : 0)))));
  const groupW = w / Math.max(1, opts.categories.length);
  const barW = Math.min(36, (groupW * 0.8) / Math.max(1, opts.series.length));
  let marks = "";
  opts.categories.forEach((cat, ci) => {
    const gx = L + ci * groupW + (groupW - barW * opts.series.length) / 2;
    opts.series.forEach((s, si) => {
      const v = s.values[ci];
      if (!v) return;
      const x = gx + si * barW;
      const y = T + h - (h * v.value) / max;
      marks += `<rect class="bar" data-series="${esc(s.name)}" data-category="${esc(cat)}" data-value="${v.value}" x="${f(x)}" y="${f(y)}" width="${f(barW - 2)}" height="${f(T + h - y)}" fill="${colour(si)}"><title>${esc(s.name)} · ${esc(cat)}: ${v.value.toFixed(1)} ± ${v.err.toFixed(1)}</title></rect>`;
      if (v.err > 0) {
        const cx = x + (barW - 2) / 2;
        const y1 = T + h - (h * Math.max(0, v.value - v.err)) / max;
        const y2 = T + h - (h * (v.value + v.err)) / max;
        marks += `<path class="errorbar" d="M${f(cx)},${f(y1)}V${f(y2)}M${f(cx - 4)},${f(y1)}H${f(cx + 4)}M${f(cx - 4)},${f(y2)}H${f(cx + 4)}" stroke="#222"/>`;
      }
    });
    marks += `<text x="${f(L + ci * groupW + groupW / 2)}" y="${T + h + 16}" font-size="12" text-anchor="middle">${esc(cat)}</text>`;
  });
  return svg(opts.id, opts.title, W, H, `${yAxis(L, T, h, w, max, opts.yLabel)}<line x1="${L}" y1="${T + h}" x2="${L + w}" y2="${T + h}" stroke="#333"/>${marks}${legend(opts.series.map((s) => s.name), L, H - 18)}`, L);
}

/** Lines (one per series) over a numeric x axis, with a shaded ± band where errors are given. */
export function lineChart(opts: {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  xTicks: { x: number; label: string }[];
  series: { name: string; points: { x: number; y: number; err?: number }[] }[];
}): string {
  const W = 640, H = 300, L = 56, T = 30, B = 56, R = 16;
  const w = W - L - R, h = H - T - B;
  const xs = opts.series.flatMap((s) => s.points.map((p) => p.x));
  const x0 = Math.min(...xs, ...opts.xTicks.map((t) => t.x)), x1 = Math.max(...xs, ...opts.xTicks.map((t) => t.x));
  const max = niceMax(Math.max(1, ...opts.series.flatMap((s) => s.points.map((p) => p.y + (p.err ?? 0)))));
  const px = (x: number) => L + (x1 === x0 ? w / 2 : ((x - x0) / (x1 - x0)) * w);
  const py = (y: number) => T + h - (h * y) / max;
  let marks = "";
  opts.series.forEach((s, si) => {
    if (s.points.some((p) => (p.err ?? 0) > 0)) {
      const upper = s.points.map((p) => `${f(px(p.x))},${f(py(p.y + (p.err ?? 0)))}`);
      const lower = [...s.points].reverse().map((p) => `${f(px(p.x))},${f(py(Math.max(0, p.y - (p.err ?? 0))))}`);
      marks += `<polygon points="${[...upper, ...lower].join(" ")}" fill="${colour(si)}" opacity="0.15"/>`;
    }
    marks += `<polyline class="line" data-series="${esc(s.name)}" points="${s.points.map((p) => `${f(px(p.x))},${f(py(p.y))}`).join(" ")}" fill="none" stroke="${colour(si)}" stroke-width="2"/>`;
    for (const p of s.points) {
      marks += `<circle class="point" data-series="${esc(s.name)}" data-x="${p.x}" data-value="${p.y}" cx="${f(px(p.x))}" cy="${f(py(p.y))}" r="3" fill="${colour(si)}"><title>${esc(s.name)}: ${p.y.toFixed(1)}</title></circle>`;
    }
  });
  let axis = `<line x1="${L}" y1="${T + h}" x2="${L + w}" y2="${T + h}" stroke="#333"/>`;
  for (const t of opts.xTicks) axis += `<line x1="${f(px(t.x))}" y1="${T + h}" x2="${f(px(t.x))}" y2="${T + h + 4}" stroke="#333"/><text x="${f(px(t.x))}" y="${T + h + 16}" font-size="11" text-anchor="middle">${esc(t.label)}</text>`;
  axis += `<text x="${L + w / 2}" y="${T + h + 32}" font-size="12" text-anchor="middle">${esc(opts.xLabel)}</text>`;
  return svg(opts.id, opts.title, W, H, `${yAxis(L, T, h, w, max, opts.yLabel)}${axis}${marks}${legend(opts.series.map((s) => s.name), L, H - 14)}`, L);
}

/** One row per competition: its median and medal thresholds as ticks, each agent's scores as dots. */
export function stripChart(opts: {
  id: string;
  title: string;
  agents: string[];
  rows: { competition: string; lowerIsBetter: boolean; thresholds: { name: string; value: number | null }[]; scores: { agent: number; value: number }[] }[];
}): string {
  const W = 640, L = 220, R = 20, rowH = 22, T = 30;
  const H = T + opts.rows.length * rowH + 30;
  const w = W - L - R;
  let marks = "";
  opts.rows.forEach((row, i) => {
    const y = T + i * rowH + rowH / 2;
    const values = [...row.thresholds.map((t) => t.value), ...row.scores.map((s) => s.value)].filter((v): v is number => v !== null && Number.isFinite(v));
    const lo = Math.min(...values), hi = Math.max(...values);
    // Better always points right, so a glance compares across metrics of both directions.
    const px = (v: number) => {
      const t = hi === lo ? 0.5 : (v - lo) / (hi - lo);
      return L + (row.lowerIsBetter ? 1 - t : t) * w;
    };
    marks += `<text x="${L - 8}" y="${y + 4}" font-size="11" text-anchor="end">${esc(row.competition)}</text><line x1="${L}" y1="${y}" x2="${L + w}" y2="${y}" stroke="#ddd"/>`;
    for (const t of row.thresholds) {
      if (t.value === null) continue;
      const c = { gold: "#c9a100", silver: "#8a8a8a", bronze: "#a0522d", median: "#333" }[t.name] ?? "#333";
      marks += `<line class="threshold" data-kind="${t.name}" x1="${f(px(t.value))}" y1="${y - 7}" x2="${f(px(t.value))}" y2="${y + 7}" stroke="${c}" stroke-width="2"><title>${t.name}: ${t.value}</title></line>`;
    }
    for (const s of row.scores) {
      marks += `<circle class="score" data-series="${esc(opts.agents[s.agent])}" data-value="${s.value}" cx="${f(px(s.value))}" cy="${y}" r="4" fill="${colour(s.agent)}" opacity="0.8"><title>${esc(opts.agents[s.agent])}: ${s.value}</title></circle>`;
    }
  });
  const key = `<text x="${L}" y="${H - 8}" font-size="11">ticks: median (black), bronze, silver, gold; better is to the right</text>`;
  return svg(opts.id, opts.title, W, H, marks + key + legend(opts.agents, 8, H - 20), L);
}

function svg(id: string, title: string, W: number, H: number, body: string, L: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" id="${esc(id)}" class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(title)}" font-family="system-ui, sans-serif"><title>${esc(title)}</title><text x="${L}" y="18" font-size="14" font-weight="600">${esc(title)}</text>${body}</svg>`;
}
