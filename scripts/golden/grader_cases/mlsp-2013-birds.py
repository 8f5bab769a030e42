"""mlsp-2013-birds: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score


def _score(g, name):
    """Upstream's steps: sort both sides by Id, require equal Ids, ROC AUC of Probability."""
    a = g.read("answers.csv").sort_values("Id")
    s = g.read(f"{name}.csv").sort_values("Id")
    assert (a.Id.to_numpy() == s.Id.to_numpy()).all()
    return roc_auc_score(a.Probability.to_numpy(), s.Probability.to_numpy())


# mlsp-2013-birds: one ROC AUC over (recording, species) pairs flattened to Id = rec_id * 100 + species.
def generate(g):
    species = 19
    recs = np.sort(g.rng.choice(np.arange(5, 260), 24, replace=False))
    ids = np.array([r * 100 + s for r in recs for s in range(species)])
    n = len(ids)
    truth = (g.rng.rand(n) < 0.08).astype(int)
    g.write(pd.DataFrame({"Id": ids, "Probability": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.55, 0.957, 120), 5), reverse=True))
    cases = {
        "perfect": truth.astype(float),
        "sample_zeros": np.zeros(n, dtype=int),
        "noisy": np.round(np.clip(truth * 0.4 + g.rng.rand(n) * 0.6, 0, 1), 6),
        "ties": np.round(np.clip(truth * 0.2 + g.rng.rand(n) * 0.8, 0, 1), 1),
        "inverted": 1.0 - truth,
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"Id": ids, "Probability": pred}).sample(frac=1, random_state=3), f"{name}.csv")
        g.record(name, _score(g, name))
    noisy = cases["noisy"]
    # Boundary values 0 and 1 are allowed.
    edge = noisy.copy()
    edge[:5] = 0.0
    edge[5:10] = 1.0
    g.write(pd.DataFrame({"Id": ids, "Probability": edge}), "bounds.csv")
    g.record("bounds", _score(g, "bounds"))

    def bad(name, df):
        g.write(df, f"{name}.csv")
        g.record(name, None)

    bad("missing_column", pd.DataFrame({"Id": ids}))
    bad("wrong_column_name", pd.DataFrame({"Id": ids, "probability": noisy}))
    bad("missing_id_column", pd.DataFrame({"Probability": noisy}))
    bad("missing_row", pd.DataFrame({"Id": ids[1:], "Probability": noisy[1:]}))
    bad("extra_row", pd.DataFrame({"Id": np.append(ids, 99999), "Probability": np.append(noisy, 0.5)}))
    unknown = ids.copy()
    unknown[7] = 99999
    bad("unknown_id", pd.DataFrame({"Id": unknown, "Probability": noisy}))
    dup = ids.copy()
    dup[7] = dup[8]
    bad("duplicate_id", pd.DataFrame({"Id": dup, "Probability": noisy}))
    nan = noisy.copy()
    nan[11] = np.nan
    bad("nan_value", pd.DataFrame({"Id": ids, "Probability": nan}))
    high = noisy.copy()
    high[4] = 1.2
    bad("above_one", pd.DataFrame({"Id": ids, "Probability": high}))
    low = noisy.copy()
    low[9] = -0.01
    bad("negative", pd.DataFrame({"Id": ids, "Probability": low}))
    text = noisy.astype(object)
    text[2] = "high"
    bad("text_value", pd.DataFrame({"Id": ids, "Probability": text}))
