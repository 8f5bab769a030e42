"""jigsaw-unintended-bias-in-toxicity-classification: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

IDENTITIES = ["male", "female", "homosexual_gay_or_lesbian", "christian", "jewish", "muslim", "black", "white",
              "psychiatric_or_mental_illness"]


# jigsaw-unintended-bias: 0.25 overall AUC + 0.25 x power means (p=-5) of subgroup/BPSN/BNSP AUCs, all on 0.5-thresholded values.
def generate(g):
    n = 400
    ids = g.rng.choice(np.arange(7000000, 7100000), n, replace=False)
    toxicity = np.round(np.clip(g.rng.beta(0.6, 1.4, n), 0, 1), 6)
    cols = {"id": ids, "toxicity": toxicity}
    for name in IDENTITIES:
        # Identity annotations exist for only part of the comments; the rest are NaN (counted as 0).
        vals = np.round(g.rng.beta(0.5, 2.0, n), 6)
        vals[g.rng.rand(n) < 0.3] = np.nan
        cols[name] = vals
    cols["comment_text"] = ["comment %d" % k for k in range(n)]
    g.write(pd.DataFrame(cols), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.85, 0.9473, 300), 5), reverse=True))

    def auc(y, s):
        return roc_auc_score(y, s)

    def score(name):
        """Upstream's steps: id and prediction (or toxicity) columns, ids equal after sorting, threshold
        predictions, labels and identities at 0.5 (NaN -> 0), then the AUCs and power means."""
        a = g.read("answers.csv")
        s = g.read(f"{name}.csv")
        assert "id" in s.columns and ("prediction" in s.columns or "toxicity" in s.columns)
        assert not ("prediction" in s.columns and "toxicity" in s.columns)
        a = a.sort_values("id", kind="stable")
        s = s.sort_values("id", kind="stable")
        assert len(a) == len(s) and (a.id.values == s.id.values).all()
        col = "prediction" if "prediction" in s.columns else "toxicity"
        pred = np.array([1 if x >= 0.5 else 0 for x in s[col]])
        y = np.array([1 if x >= 0.5 else 0 for x in a.toxicity])
        overall = auc(y, pred)
        means = []
        triples = []
        for name_ in IDENTITIES:
            ident = np.array([1 if x >= 0.5 else 0 for x in a[name_]])
            sub = ident == 1
            bpsn = ((y == 0) & (ident == 1)) | ((y == 1) & (ident != 1))
            bnsp = ((y == 1) & (ident == 1)) | ((y == 0) & (ident != 1))
            triples.append([auc(y[m], pred[m]) for m in (sub, bpsn, bnsp)])
        for k in range(3):
            vals = np.array([t[k] for t in triples], dtype=float)
            means.append((np.sum(vals ** -5.0) / len(IDENTITIES)) ** (1 / -5.0))
        return 0.25 * overall + 0.25 * means[0] + 0.25 * means[1] + 0.25 * means[2]

    def write(name, df, shuffle=True):
        g.write(df.sample(frac=1, random_state=9) if shuffle else df, f"{name}.csv")

    noisy = np.round(np.clip(toxicity + g.rng.normal(0, 0.25, n), 0, 1), 5)
    cases = {
        "perfect": toxicity,
        "noisy": noisy,
        "sample_like": np.full(n, 0.5),
        "all_low": np.zeros(n),
        "noisy_with_gaps": np.where(g.rng.rand(n) < 0.1, np.nan, noisy),
        "out_of_range": noisy * 3 - 1,
    }
    for name, pred in cases.items():
        write(name, pd.DataFrame({"id": ids, "prediction": pred}))
        g.record(name, score(name))
    write("noisy_file_order", pd.DataFrame({"id": ids, "prediction": noisy}), shuffle=False)
    g.record("noisy_file_order", score("noisy_file_order"))
    # The answers file itself is accepted: its "toxicity" column stands in for "prediction".
    write("answers_as_submission", g.read("answers.csv"), shuffle=False)
    g.record("answers_as_submission", score("answers_as_submission"))
    write("boolean_predictions", pd.DataFrame({"id": ids, "prediction": noisy >= 0.4}))
    g.record("boolean_predictions", score("boolean_predictions"))

    def invalid(name):
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    base = pd.DataFrame({"id": ids, "prediction": noisy})
    write("missing_prediction", base.rename(columns={"prediction": "score"}))
    write("missing_id", base.drop(columns="id"))
    write("missing_row", base.iloc[:-1])
    write("extra_row", pd.concat([base, pd.DataFrame({"id": [1], "prediction": [0.2]})]))
    dup = base.copy()
    dup.loc[0, "id"] = dup.loc[1, "id"]
    write("duplicate_id", dup)
    text = base.astype({"prediction": object})
    text.loc[4, "prediction"] = "toxic"
    write("text_prediction", text)
    write("prediction_and_toxicity", base.assign(toxicity=noisy))
    for name in ["missing_prediction", "missing_id", "missing_row", "extra_row", "duplicate_id", "text_prediction",
                 "prediction_and_toxicity"]:
        invalid(name)
