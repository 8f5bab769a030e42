"""movie-review-sentiment-analysis-kernels-only: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


def _accuracy(truth, pred):
    # Element-wise Python equality over the id-sorted columns: 2 == 2.0, 2 != "2".
    return float(np.mean(truth.to_numpy(dtype=object) == pred.to_numpy(dtype=object)))


# movie-review-sentiment-analysis-kernels-only: accuracy of Sentiment (0-4), rows matched by PhraseId.
def generate(g):
    n = 400
    ids = np.sort(g.rng.choice(np.arange(1, 156061), n, replace=False))
    truth = g.rng.choice(5, n, p=[0.05, 0.17, 0.5, 0.21, 0.07])
    answers = pd.DataFrame({
        "PhraseId": ids,
        "SentenceId": ids // 30,
        "Phrase": ["phrase %d, with a comma" % i for i in ids],
        "Sentiment": truth,
    })
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.5, 0.765, 160), 5), reverse=True))
    cases = {
        "perfect": truth.copy(),
        "sample_like": np.full(n, 2),
        "noisy": np.where(g.rng.rand(n) < 0.35, g.rng.choice(5, n), truth),
        "as_floats": np.where(g.rng.rand(n) < 0.2, 2, truth).astype(float),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"PhraseId": ids, "Sentiment": pred}).sample(frac=1, random_state=3), f"{name}.csv")
        a = g.read("answers.csv").sort_values("PhraseId")
        s = g.read(f"{name}.csv").sort_values("PhraseId")
        assert list(a.PhraseId) == list(s.PhraseId)
        g.record(name, _accuracy(a.Sentiment, s.Sentiment))
    # Text labels never equal the integer answers, and a multiclass pair is never unioned: 0, not an error.
    g.write(pd.DataFrame({"PhraseId": ids, "Sentiment": np.where(truth > 2, "positive", "negative")}), "text_labels.csv")
    g.record("text_labels", 0.0)
    noisy = cases["noisy"]
    # Invalid: no Sentiment column, a row missing, an unknown id, a repeated id, a blank label, half-classes.
    g.write(pd.DataFrame({"PhraseId": ids, "label": noisy}), "missing_column.csv")
    g.record("missing_column", None)
    g.write(pd.DataFrame({"PhraseId": ids, "Sentiment": noisy}).iloc[1:], "missing_row.csv")
    g.record("missing_row", None)
    other = ids.copy()
    other[5] = 999999
    g.write(pd.DataFrame({"PhraseId": other, "Sentiment": noisy}), "unknown_id.csv")
    g.record("unknown_id", None)
    dup = ids.copy()
    dup[5] = dup[6]
    g.write(pd.DataFrame({"PhraseId": dup, "Sentiment": noisy}), "duplicate_id.csv")
    g.record("duplicate_id", None)
    blank = noisy.astype(float)
    blank[7] = np.nan
    g.write(pd.DataFrame({"PhraseId": ids, "Sentiment": blank}), "nan_label.csv")
    g.record("nan_label", None)
    g.write(pd.DataFrame({"PhraseId": ids, "Sentiment": noisy + 0.5}), "continuous.csv")
    g.record("continuous", None)
