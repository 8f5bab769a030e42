"""Synthetic free text for the text-heavy oracles: the characters that make CSV round trips hard
(quotes, commas, line breaks, Indic scripts, emoji), drawn from a numpy RandomState."""
import numpy as np

# Every entry is one "word"; some carry the hazards a CSV writer must quote or a reader must keep.
WORDS = [
    "the", "a", "model", "answer", "question", "is", "was", "not", "really", "good", "bad", "data",
    "\"quoted\"", "it's", "don't", "comma,", "semi;colon", "x=1", "(brackets)", "#hash", "@user",
    "naïve", "café", "—dash", "…", "ünïcödé", "100%", "$5", "3.14", "-7", "1e5", "NA-ish",
    "भारत", "हिंदी", "प्रश्न", "உத்தரம்", "தமிழ்", "கேள்வி", "😀", "🙂👍", "日本語", "\\backslash",
    "http://example.com/a?b=1&c=2", "&amp;", "<p>", "</p>", "'single'", "\"\"doubled\"\"", "tab\there",
]

# Whole cells that pandas' read_csv turns into NaN, so they come out of to_csv as empty fields.
# "None" is left out: pandas 2 (upstream's) reads it as missing, the oracle's pandas 1.5 does not.
NA_CELLS = ["NA", "null", "nan", "N/A", "NaN", "#N/A", "<NA>", ""]


def words(rs, lo, hi, vocab=WORDS):
    """lo..hi-1 words from vocab."""
    return [vocab[k] for k in rs.randint(0, len(vocab), size=rs.randint(lo, hi))]


def text(rs, lo=3, hi=30, breaks=0.15, vocab=WORDS):
    """A passage: words joined by spaces, now and then by a line break ("\\n", "\\n\\n" or "\\r\\n")."""
    out = []
    for w in words(rs, lo, hi, vocab):
        if out:
            r = rs.random_sample()
            out.append(" " if r >= breaks else ["\n", "\n\n", "\r\n"][int(r / breaks * 3)])
        out.append(w)
    return "".join(out)


def hex_ids(rs, n, width):
    """n distinct lowercase hex ids of `width` digits; a few are all digits or look like floats
    ("12e45"), which pandas keeps verbatim only because the rest of the column is text."""
    seen, out = set(), []
    while len(out) < n:
        k = len(out)
        if k % 37 == 5:
            s = "".join(str(d) for d in rs.randint(0, 10, size=width))
        elif k % 41 == 7:
            s = "".join(str(d) for d in rs.randint(0, 10, size=width))
            s = s[:2] + "e" + s[3:]
        else:
            s = "".join("0123456789abcdef"[d] for d in rs.randint(0, 16, size=width))
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def sprinkle_na(rs, cells, p):
    """Replace a share p of the cells with tokens pandas reads as missing."""
    cells = list(cells)
    for i in np.flatnonzero(rs.random_sample(len(cells)) < p):
        cells[i] = NA_CELLS[rs.randint(0, len(NA_CELLS))]
    return cells
