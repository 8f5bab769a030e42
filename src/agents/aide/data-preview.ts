/** A short overview of the task's data (file tree and CSV column summaries), computed inside the sandbox. */
import type { Sandbox } from "../../sandbox/types.js";

/**
 * Python that prints the overview of the folder in argv[1]: a file tree (a few files per folder),
 * then per CSV its shape and per column the dtype and a range, unique values or examples; when that
 * runs long, CSVs get only their column names. Works without pandas, with less detail.
 */
export const PREVIEW_PY = String.raw`
import csv, json, os, sys
root = sys.argv[1]
limit = int(sys.argv[2])
TEXT = {".txt", ".csv", ".tsv", ".json", ".md", ".py", ".yaml", ".yml", ".html", ".xml", ".rst", ".sh"}
def size(p):
    if os.path.splitext(p)[1].lower() in TEXT and os.path.getsize(p) < 200_000_000:
        with open(p, "rb") as f:
            return "%d lines" % sum(1 for _ in f)
    n = float(os.path.getsize(p))
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000:
            return ("%d %s" % (n, unit)) if unit == "B" else ("%.1f %s" % (n, unit))
        n /= 1000
    return "%.1f TB" % n
def tree(d, depth=0):
    out = []
    names = sorted(os.listdir(d))
    files = [n for n in names if not os.path.isdir(os.path.join(d, n))]
    dirs = [n for n in names if os.path.isdir(os.path.join(d, n))]
    cap = 4 if len(files) > 30 else 8
    pad = "    " * depth
    for n in files[:cap]:
        out.append("%s%s (%s)" % (pad, n, size(os.path.join(d, n))))
    if len(files) > cap:
        out.append("%s... and %d more files" % (pad, len(files) - cap))
    for n in dirs:
        out.append("%s%s/" % (pad, n))
        out.extend(tree(os.path.join(d, n), depth + 1))
    return out
def csvs(d):
    for base, dirs, files in os.walk(d):
        dirs.sort()
        for n in sorted(files):
            if n.lower().endswith(".csv"):
                yield os.path.join(base, n)
def describe(p, simple):
    rel = os.path.relpath(p, root)
    try:
        import pandas as pd
    except ImportError:
        with open(p, newline="") as f:
            head = next(csv.reader(f), [])
        return "-> %s has columns: %s" % (rel, ", ".join(head[:15]) + (" ... and %d more" % (len(head) - 15) if len(head) > 15 else ""))
    df = pd.read_csv(p, nrows=200_000)
    lines = ["-> %s has %d rows and %d columns%s." % (rel, df.shape[0], df.shape[1], " (first 200000 rows read)" if df.shape[0] == 200_000 else "")]
    cols = [str(c) for c in df.columns]
    if simple:
        lines.append("Columns: " + ", ".join(cols[:15]) + (" ... and %d more" % (len(cols) - 15) if len(cols) > 15 else ""))
        return "\n".join(lines)
    for c in df.columns[:60]:
        s = df[c]
        name = "%s (%s)" % (c, s.dtype)
        nans = int(s.isnull().sum())
        nu = s.nunique()
        if nu < 10:
            lines.append("%s has %d unique values: %s" % (name, nu, json.dumps([v if isinstance(v, (int, float, str, bool)) else str(v) for v in s.dropna().unique().tolist()], default=str)))
        elif pd.api.types.is_numeric_dtype(s):
            lines.append("%s ranges %.4g to %.4g, %d missing" % (name, s.min(), s.max(), nans))
        else:
            lines.append("%s has %d unique values, e.g. %s" % (name, nu, json.dumps([str(v)[:60] for v in s.value_counts().head(4).index.tolist()])))
    if len(df.columns) > 60:
        lines.append("... and %d more columns" % (len(df.columns) - 60))
    return "\n".join(lines)
def overview(simple):
    parts = ["\n".join(tree(root))]
    for p in csvs(root):
        try:
            parts.append(describe(p, simple))
        except Exception as e:
            parts.append("-> %s could not be read: %s" % (os.path.relpath(p, root), e))
    return "\n\n".join(parts)
text = overview(False)
if len(text) > limit:
    text = overview(True)
if len(text) > limit:
    text = text[:limit] + "\n... (overview cut here)"
print(text)
`;

/** The data overview, or null (with the reason logged by the caller) when the command fails. */
export async function dataPreview(
  sandbox: Sandbox,
  opts: { python: string; limit?: number; timeoutMs?: number },
): Promise<{ text: string | null; error: string | null }> {
  const r = await sandbox.exec([opts.python, "-c", PREVIEW_PY, sandbox.paths.data, String(opts.limit ?? 6000)], {
    cwd: sandbox.paths.workspace,
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
  if (r.exitCode !== 0) return { text: null, error: (r.stderr || r.stdout).trim().split("\n").slice(-3).join(" ") || r.reason };
  return { text: r.stdout.trimEnd(), error: null };
}
