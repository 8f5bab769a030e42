"""paddy-disease-classification: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

LABELS = ["bacterial_leaf_blight", "bacterial_leaf_streak", "bacterial_panicle_blight", "blast", "brown_spot",
          "dead_heart", "downy_mildew", "hispa", "normal", "tungro"]


def _accuracy(truth, pred_list):
    # Upstream fills blanks with "" and passes a list; numpy turns a list holding any text into an
    # all-text array (1.0 -> "1.0"). Equality is then plain string equality with the answers.
    if any(isinstance(v, str) for v in pred_list):
        pred_list = [v if isinstance(v, str) else str(v) for v in pred_list]
    return float(np.mean([t == p for t, p in zip(truth.tolist(), pred_list)]))


# paddy-disease-classification: accuracy of `label`, rows matched by `image_id`; blanks count as wrong.
def generate(g):
    n = 350
    ids = ["%d.jpg" % i for i in g.rng.choice(np.arange(100000, 110408), n, replace=False)]
    truth = g.rng.choice(LABELS, n)
    answers = pd.DataFrame({"image_id": ids, "label": truth, "variety": "ADT45", "age": g.rng.randint(45, 82, n)})
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.7, 0.99, 140), 5), reverse=True))
    noisy = np.where(g.rng.rand(n) < 0.2, g.rng.choice(LABELS, n), truth)
    blanks = noisy.astype(object)
    blanks[g.rng.rand(n) < 0.15] = np.nan
    numbers_with_blanks = g.rng.randint(0, 10, n).astype(float)
    numbers_with_blanks[::7] = np.nan
    cases = {
        "perfect": truth.copy(),
        # The sample submission's labels are all empty: valid, and every row wrong.
        "sample_like": [""] * n,
        "noisy": noisy,
        "some_blank": blanks,
        # Integer labels never equal the text answers: 0, not an error.
        "numeric_labels": g.rng.randint(0, 10, n),
        # With a blank, the numbers become text ("3.0"): still 0.
        "numeric_with_blanks": numbers_with_blanks,
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"image_id": ids, "label": pred}).sample(frac=1, random_state=9), f"{name}.csv")
        a = g.read("answers.csv").sort_values("image_id").reset_index(drop=True)
        s = g.read(f"{name}.csv").sort_values("image_id").reset_index(drop=True)
        assert list(a.image_id) == list(s.image_id)
        g.record(name, _accuracy(a.label, s.label.fillna("").tolist()))

    def bad(name, df):
        g.write(df, f"{name}.csv")
        g.record(name, None)

    # Fractional numbers with no blank stay numbers: continuous targets, refused.
    bad("fractional_labels", pd.DataFrame({"image_id": ids, "label": g.rng.rand(n)}))
    bad("missing_column", pd.DataFrame({"image_id": ids, "disease": noisy}))
    bad("missing_id_column", pd.DataFrame({"id": ids, "label": noisy}))
    bad("missing_row", pd.DataFrame({"image_id": ids, "label": noisy}).iloc[1:])
    other = list(ids)
    other[0] = "999999.jpg"
    bad("unknown_id", pd.DataFrame({"image_id": other, "label": noisy}))
    dup = list(ids)
    dup[0] = dup[1]
    bad("duplicate_id", pd.DataFrame({"image_id": dup, "label": noisy}))
