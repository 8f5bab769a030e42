"""tweet-sentiment-extraction: answers, leaderboard and submissions, scored independently with pandas + Python sets."""
import numpy as np
import pandas as pd

WORDS = (
    "i love this so much sad day ugh why is it raining again happy birthday mom :) lol "
    "can`t wait!! soooo bored... http://t.co/x #fail @friend Great GREAT awesome terrible "
    "NOT good É café ΣΑΣ naïve ok.. yes no maybe tomorrow work sucks fun"
).split()
# Separators that Python's str.split() treats differently from JavaScript's \s.
ODD_SPACES = ["\xa0", "\x1c", "\u3000", "\u200b", "\ufeff", "\x85"]


def words(text):
    return set(text.lower().split())


def score(name, g):
    """Mean per-row Jaccard of lower-cased word sets after sorting both sides on textID."""
    s = g.read(f"{name}.csv")
    a = g.read("answers.csv")
    if not {"textID", "selected_text"} <= set(s.columns) or len(s) != len(a):
        return None
    s = s.sort_values("textID")
    a = a.sort_values("textID")
    if (s.textID.values != a.textID.values).any():
        return None
    pred = s.selected_text.fillna("").astype(str).tolist()
    true = a.selected_text.fillna("").astype(str).tolist()
    out = []
    for p, t in zip(pred, true):
        x, y = words(p), words(t)
        union = len(x | y)
        if union == 0:
            return None
        out.append(len(x & y) / union)
    return float(np.mean(out))


# tweet-sentiment-extraction: mean word-level Jaccard, textIDs sorted and compared, NaN read as "".
def generate(g):
    n = 250
    ids = g.hex_ids(n, 10)
    tweets, spans = [], []
    for i in range(n):
        k = g.rng.randint(3, 14)
        toks = list(g.rng.choice(WORDS, k))
        if i % 9 == 0:
            toks.insert(g.rng.randint(1, k), "x" + ODD_SPACES[(i // 9) % len(ODD_SPACES)] + "y")
        a = g.rng.randint(0, k)
        b = g.rng.randint(a + 1, k + 1)
        tweets.append(" ".join(toks))
        spans.append(" ".join(toks[a:b]))
    g.write(pd.DataFrame({"textID": ids, "selected_text": spans}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.55, 0.7362, 2220), 5), reverse=True))
    partly = [s if g.rng.rand() < 0.5 else t for s, t in zip(spans, tweets)]
    with_gaps = [None if i % 7 == 0 else s for i, s in enumerate(spans)]
    cases = {
        "perfect": spans,
        "full_tweet": tweets,
        "partly_right": partly,
        "shouted": [s.upper() for s in spans],
        "padded": ["  " + s.replace(" ", " \t ") + "\n" for s in spans],
        "first_word": [s.split()[0] if s.split() else "" for s in tweets],
        "some_missing": with_gaps,
        "numbers": list(range(n)),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"textID": ids, "selected_text": pred}).sample(frac=1, random_state=8), f"{name}.csv")
        g.record(name, score(name, g))
    invalid = {
        "missing_id": pd.DataFrame({"textID": ids[1:], "selected_text": spans[1:]}),
        "extra_id": pd.DataFrame({"textID": ids + ["abcdef0123"], "selected_text": spans + ["x"]}),
        "duplicate_id": pd.DataFrame({"textID": [ids[1]] + ids[1:], "selected_text": spans}),
        "missing_column": pd.DataFrame({"textID": ids, "text": spans}),
        "lowercase_header": pd.DataFrame({"textid": ids, "selected_text": spans}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(name, g) is None, name
        g.record(name, None)
