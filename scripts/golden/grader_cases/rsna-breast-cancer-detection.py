"""rsna-breast-cancer-detection: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import math

import numpy as np
import pandas as pd


def pf1(labels, predictions):
    """Probabilistic F1 written out: soft counts of clipped predictions accumulated row by row
    (a NaN prediction poisons both counts), 0 unless precision and recall are both positive."""
    tp = fp = 0.0
    positives = 0
    for label, p in zip(labels, predictions):
        p = float(p)
        p = p if math.isnan(p) else min(max(p, 0.0), 1.0)
        if label:
            positives += 1
            tp += p
        else:
            fp += p
    precision = tp / (tp + fp) if (tp + fp) != 0 else float("nan")
    recall = tp / positives
    if precision > 0 and recall > 0:
        return 2 * (precision * recall) / (precision + recall)
    return 0.0


def score(g, name):
    """Upstream's steps: both columns present, same row count, both sorted by prediction_id and
    compared element-wise, numeric predictions, then the metric in sorted-id order."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    assert {"prediction_id", "cancer"} <= set(s.columns)
    assert len(s) == len(a)
    s = s.sort_values("prediction_id", kind="stable")
    a = a.sort_values("prediction_id", kind="stable")
    assert (s.prediction_id.to_numpy() == a.prediction_id.to_numpy()).all()
    assert pd.api.types.is_numeric_dtype(s.cancer) or s.cancer.map(lambda v: isinstance(v, (bool, float))).all()
    return pf1(a.cancer.to_numpy(), s.cancer.to_numpy())


def generate(g):
    patients = sorted(set(g.rng.randint(10000, 65535, 60).tolist()))
    rows = []
    for p in patients:
        for side in "LR":
            rows.append({"prediction_id": f"{p}_{side}", "cancer": int(g.rng.rand() < 0.15)})
    ans = pd.DataFrame(rows)
    # The preparer writes the answers grouped by prediction_id, i.e. in sorted text order.
    ans = ans.sort_values("prediction_id").reset_index(drop=True)
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.1, 0.55, 300), 5), reverse=True))
    ids = ans.prediction_id.to_numpy()
    truth = ans.cancer.to_numpy()
    n = len(ans)
    assert truth.sum() > 0

    def sub(cancer, prediction_ids=ids):
        return pd.DataFrame({"prediction_id": prediction_ids, "cancer": cancer})

    def valid(name, df):
        g.write(df, f"{name}.csv")
        value = score(g, name)
        g.record(name, value)
        return value

    def invalid(name, df):
        g.write(df, f"{name}.csv")
        try:
            score(g, name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    assert valid("perfect", sub(truth)) == 1.0
    rate = 0.021226
    constant = valid("sample_like", sub(np.full(n, rate)))
    assert abs(constant - 2 * truth.mean() * rate / (truth.mean() + rate)) < 1e-12
    assert valid("all_zero", sub(np.zeros(n))) == 0.0
    noisy = np.clip(truth * 0.6 + g.rng.rand(n) * 0.4, 0, 1)
    valid("noisy", sub(noisy).sample(frac=1, random_state=2))
    guesses = (noisy > 0.5) ^ (g.rng.rand(n) < 0.1)
    valid("boolean_predictions", sub(guesses).sample(frac=1, random_state=3))
    valid("integer_predictions", sub(guesses.astype(int)))
    # Out-of-range predictions are clipped, not refused.
    wild = noisy * 3 - 1
    valid("out_of_range", sub(wild).sample(frac=1, random_state=4))
    # One blank prediction is accepted and makes the score 0.
    gap = sub(noisy)
    gap.loc[5, "cancer"] = np.nan
    assert valid("missing_prediction", gap) == 0.0
    valid("extra_column", sub(noisy).assign(laterality=[i[-1] for i in ids]))

    invalid("missing_cancer_column", sub(noisy).drop(columns="cancer"))
    invalid("missing_id_column", sub(noisy).drop(columns="prediction_id"))
    invalid("missing_row", sub(noisy).iloc[1:])
    invalid("extra_row", pd.concat([sub(noisy), sub([0.5], ["1_L"])]))
    dup = ids.copy()
    dup[1] = dup[0]
    invalid("duplicate_id", sub(noisy, dup))
    unknown = ids.copy()
    unknown[3] = "12_R"
    invalid("unknown_id", sub(noisy, unknown))
    invalid("patient_ids_only", sub(noisy, [i.split("_")[0] for i in ids]))
    text = sub(noisy).astype({"cancer": object})
    text.loc[2, "cancer"] = "likely"
    invalid("text_prediction", text)
