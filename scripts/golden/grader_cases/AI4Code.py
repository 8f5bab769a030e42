"""AI4Code: answers, leaderboard and submissions, scored with a pairwise Kendall tau written out in Python."""
import numpy as np
import pandas as pd


def score(name, g):
    """Upstream's steps: length, columns, id sets, both sorted by id, per-notebook cell counts, then pooled Kendall tau."""
    s = g.read(f"{name}.csv")
    a = g.read("answers.csv")
    if len(s) != len(a) or "id" not in s.columns or "cell_order" not in s.columns:
        return None
    if set(s["id"]) != set(a["id"]):
        return None
    s = s.sort_values("id")
    a = a.sort_values("id")
    pairs = list(zip(a["cell_order"].astype(str), s["cell_order"].astype(str)))
    if any(len(t.split()) != len(p.split()) for t, p in pairs):
        return None
    discordant = 0
    pairs_total = 0
    for t, p in pairs:
        truth, pred = t.split(), p.split()
        if not set(truth) <= set(pred):
            return None
        where = {c: pred.index(c) for c in truth}
        ranks = [where[c] for c in truth]
        n = len(ranks)
        discordant += sum(ranks[i] > ranks[j] for i in range(n) for j in range(i + 1, n))
        pairs_total += n * (n - 1) // 2
    # tau = (concordant - discordant) / pairs = 1 - 2 * discordant / pairs
    return 1 - 2 * discordant / pairs_total


# AI4Code: Kendall tau over cell orders pooled across notebooks, ids compared as sets.
def generate(g):
    n = 60
    rng = g.rng
    ids = g.hex_ids(n, 14)
    sizes = [1 if i % 20 == 0 else int(rng.randint(2, 25)) for i in range(n)]
    orders = [g.hex_ids(k, 8) for k in sizes]
    kinds = [rng.rand(k) < 0.6 for k in sizes]  # True = code cell
    g.write(pd.DataFrame({"id": ids, "cell_order": [" ".join(o) for o in orders]}), "answers.csv")
    g.leaderboard(sorted(np.round(rng.uniform(0.3, 0.9193, 1135), 5), reverse=True))

    def code_first(o, k):
        return [c for c, is_code in zip(o, k) if is_code] + [c for c, is_code in zip(o, k) if not is_code]

    def few_swaps(o):
        o = list(o)
        for _ in range(max(1, len(o) // 5)):
            i = rng.randint(len(o))
            j = min(len(o) - 1, i + rng.randint(0, 4))
            o[i], o[j] = o[j], o[i]
        return o

    cases = {
        "perfect": orders,
        "sample_like": [code_first(o, k) for o, k in zip(orders, kinds)],
        "few_swaps": [few_swaps(o) for o in orders],
        "reversed": [o[::-1] for o in orders],
        "random": [list(rng.permutation(o)) for o in orders],
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"id": ids, "cell_order": [" ".join(p) for p in pred]}).sample(frac=1, random_state=4), f"{name}.csv")
        g.record(name, score(name, g))
    spaced = ["\t" + "  ".join(p) + " " for p in cases["few_swaps"]]
    g.write(pd.DataFrame({"id": ids, "cell_order": spaced}), "extra_whitespace.csv")
    g.record("extra_whitespace", score("extra_whitespace", g))

    good = [" ".join(p) for p in cases["sample_like"]]
    unknown = list(good)
    unknown[3] = " ".join(["zzzzzzzz"] + cases["sample_like"][3][1:])
    repeated = list(good)
    repeated[4] = " ".join(cases["sample_like"][4][:-1] + cases["sample_like"][4][:1])
    too_few = list(good)
    too_few[5] = " ".join(cases["sample_like"][5][:-1])
    nan_single = [None if sizes[i] == 1 and i == 0 else c for i, c in enumerate(good)]
    invalid = {
        "missing_id": pd.DataFrame({"id": ids[1:], "cell_order": good[1:]}),
        "extra_id": pd.DataFrame({"id": ids + ["ffffffffffffff"], "cell_order": good + ["a"]}),
        "duplicate_id": pd.DataFrame({"id": [ids[1]] + ids[1:], "cell_order": good}),
        "missing_column": pd.DataFrame({"id": ids, "order": good}),
        "unknown_cell": pd.DataFrame({"id": ids, "cell_order": unknown}),
        "repeated_cell": pd.DataFrame({"id": ids, "cell_order": repeated}),
        "too_few_cells": pd.DataFrame({"id": ids, "cell_order": too_few}),
        "empty_single_cell": pd.DataFrame({"id": ids, "cell_order": nan_single}),
        "comma_separated": pd.DataFrame({"id": ids, "cell_order": [c.replace(" ", ",") for c in good]}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(name, g) is None, name
        g.record(name, None)
