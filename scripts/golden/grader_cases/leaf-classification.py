"""leaf-classification: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import os
import re

import numpy as np
import pandas as pd

# The 99 species names (checked once against upstream's classes.py); only names, no scoring logic.
_CLASSES_TS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "src", "competitions", "leaf-classification", "classes.ts")
with open(_CLASSES_TS, encoding="utf-8") as _f:
    SPECIES = re.findall(r'"([^"]+)"', _f.read().split("[", 1)[1])
assert len(SPECIES) == 99


def _score(g, name):
    """Upstream's steps: exact column set, equal length, rows sum to 1 (isclose, atol 1e-6), values in
    [0, 1], then rows sorted by id, ids equal, log loss clipped to eps without renormalisation."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    assert set(s.columns) == {"id", *SPECIES} and len(s) == len(a)
    assert np.isclose(s[SPECIES].sum(axis=1), 1, atol=1e-6).all()
    assert ((s[SPECIES] >= 0) & (s[SPECIES] <= 1)).all().all()
    a = a.sort_values("id").reset_index(drop=True)
    s = s.sort_values("id").reset_index(drop=True)
    assert a.id.tolist() == s.id.tolist()
    return g.log_loss_np(a[SPECIES].to_numpy(), s[SPECIES].to_numpy())


# leaf-classification: 99-class log loss on one-hot answers; exact column set required.
def generate(g):
    n = 20
    k = len(SPECIES)
    ids = np.sort(g.rng.choice(np.arange(1, 1585), n, replace=False))
    labels = g.rng.randint(0, k, n)
    onehot = np.eye(k, dtype=int)[labels]
    g.write(pd.DataFrame({"id": ids, **{c: onehot[:, j] for j, c in enumerate(SPECIES)}}), "answers.csv")
    g.leaderboard(sorted(np.round(np.concatenate([g.rng.gamma(0.6, 0.05, 300), g.rng.uniform(0.3, 4.6, 100)]), 5)))

    def write(df, name):
        # %.17g round-trips every float64 and writes the many zeros as "0", keeping files small.
        g.write_text(df.to_csv(index=False, float_format="%.17g"), f"{name}.csv")

    def frame(p, ids_=ids, cols=SPECIES):
        return pd.DataFrame({"id": ids_, **{c: p[:, j] for j, c in enumerate(cols)}})

    # Sparse rows with short decimals keep the files small: mass on the true class (or a wrong one) and two others.
    sparse = np.zeros((n, k))
    for i in range(n):
        first = labels[i] if i % 4 else (labels[i] + 7) % k
        others = g.rng.choice([j for j in range(k) if j != first], 2, replace=False)
        sparse[i, first] = 0.7
        sparse[i, others[0]] = 0.2
        sparse[i, others[1]] = 0.1
    almost = sparse.copy()
    almost[:, labels[0]] += 4e-6  # within isclose's tolerance of 1, scored as given
    valid = {
        "perfect": frame(onehot),
        "sample_uniform": frame(np.full((n, k), 1 / k)),
        "sparse": frame(sparse),
        "shuffled": frame(sparse).sample(frac=1, random_state=1),
        "columns_reordered": frame(sparse)[["id"] + SPECIES[::-1]],
        "almost_normalised": frame(almost),
    }
    for name, df in valid.items():
        write(df, name)
        g.record(name, _score(g, name))

    # Ids written as floats ("5.0") still equal the integer answer ids.
    g.write(frame(sparse, ids.astype(float)), "float_ids.csv")
    g.record("float_ids", _score(g, "float_ids"))

    def bad(name, df):
        write(df, name)
        g.record(name, None)

    bad("missing_class_column", frame(sparse).drop(columns=[SPECIES[labels[1]]]))
    bad("extra_column", frame(sparse).assign(species="Acer_Mono"))
    bad("missing_id_column", frame(sparse).drop(columns=["id"]))
    bad("missing_row", frame(sparse).iloc[1:])
    bad("extra_row", pd.concat([frame(sparse), frame(sparse[:1], [9999])]))
    dup = ids.copy()
    dup[3] = dup[4]
    bad("duplicate_id", frame(sparse, dup))
    unknown = ids.copy()
    unknown[5] = 9999
    bad("unknown_id", frame(sparse, unknown))
    unnorm = sparse.copy()
    unnorm[2] *= 0.9
    bad("not_normalised", frame(unnorm))
    neg = sparse.copy()
    row = neg[6]
    row[np.argmax(row)] += 0.3
    row[np.argmin(np.where(row > 0, row, 2))] -= 0.3
    assert row.min() < 0 and abs(row.sum() - 1) < 1e-9
    bad("negative_probability", frame(neg))
    nan = sparse.copy()
    nan[8, labels[8] if sparse[8, labels[8]] == 0 else (labels[8] + 1) % k] = np.nan
    bad("nan_value", frame(nan))
    text = frame(sparse)
    text[SPECIES[0]] = text[SPECIES[0]].astype(object)
    text.loc[0, SPECIES[0]] = "zero"
    bad("text_value", text)
