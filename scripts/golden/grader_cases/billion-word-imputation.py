"""billion-word-imputation: answers, leaderboard and submissions, scored with a plain-Python edit distance."""
import numpy as np
import pandas as pd

WORDS = (
    "the of and to a in that is was he for it with as his on be at by I this had not are but from "
    "or have an they which one you were her all she there would their we him been has when who will "
    "more no if out so said what up its about into than them can only other new some could time "
    ", . \" ' ( ) ; : - -- ? ! 's n't café naïve Zürich ΣΑΣ 東京 😀 🚀 $ 1,000 3.5 %"
).split()


def lev(a, b):
    """Unit-cost edit distance over Python str elements (code points)."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def score(name, g):
    """Upstream's steps: columns, length, both sorted by id and compared, then mean distance; None if it would fail."""
    s = g.read(f"{name}.csv")
    a = g.read("answers.csv")
    if "id" not in s.columns or "sentence" not in s.columns or len(s) != len(a):
        return None
    s = s.sort_values("id").reset_index(drop=True)
    a = a.sort_values("id").reset_index(drop=True)
    if (s["id"].values != a["id"].values).any():
        return None
    out = []
    for t, p in zip(a["sentence"], s["sentence"]):
        if not isinstance(p, str):
            return None  # Levenshtein.distance raises TypeError on NaN / numbers
        out.append(lev(t, p))
    return float(np.mean(out))


def drop_word(words, rng):
    i = rng.randint(1, len(words) - 1)
    return words[:i] + words[i + 1 :]


# billion-word-imputation: mean character-level Levenshtein distance, ids sorted and compared.
def generate(g):
    n = 200
    rng = g.rng
    sents = [list(rng.choice(WORDS, rng.randint(3, 16))) for _ in range(n)]
    truth = [" ".join(w) for w in sents]
    ids = list(range(n))
    g.write(pd.DataFrame({"id": ids, "sentence": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(rng.uniform(5.2, 7.8, 220), 5)))
    removed = [" ".join(drop_word(w, rng)) for w in sents]
    partly = []
    for w, t, r in zip(sents, truth, removed):
        u = rng.rand()
        if u < 0.4:
            partly.append(t)
        elif u < 0.7:
            partly.append(r)
        else:
            i = rng.randint(1, len(w))
            partly.append(" ".join(w[:i] + ["the"] + w[i:]))
    cases = {
        "perfect": truth,
        "sample_like": removed,
        "partly_right": partly,
        "upper_case": [t.upper() for t in truth],
        "single_word": [w[0] for w in sents],
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"id": ids, "sentence": pred}).sample(frac=1, random_state=3), f"{name}.csv")
        g.record(name, score(name, g))
    g.write(pd.DataFrame({"id": ids, "sentence": removed}), "file_order.csv")
    g.record("file_order", score("file_order", g))
    g.write(pd.DataFrame({"id": [float(i) for i in ids], "sentence": removed}), "float_ids.csv")
    g.record("float_ids", score("float_ids", g))
    invalid = {
        "missing_id": pd.DataFrame({"id": ids[1:], "sentence": removed[1:]}),
        "extra_id": pd.DataFrame({"id": ids + [n], "sentence": removed + ["x"]}),
        "duplicate_id": pd.DataFrame({"id": [ids[1]] + ids[1:], "sentence": removed}),
        "shifted_ids": pd.DataFrame({"id": [i + 1 for i in ids], "sentence": removed}),
        "missing_column": pd.DataFrame({"id": ids, "text": removed}),
        "no_id_column": pd.DataFrame({"Id": ids, "sentence": removed}),
        "empty_sentence": pd.DataFrame({"id": ids, "sentence": [None if i == 5 else r for i, r in enumerate(removed)]}),
        "numeric_sentences": pd.DataFrame({"id": ids, "sentence": list(range(n))}),
        "text_ids": pd.DataFrame({"id": ["s%d" % i for i in ids], "sentence": removed}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(name, g) is None, name
        g.record(name, None)
