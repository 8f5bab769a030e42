"""learning-agency-lab-automated-essay-scoring-2: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score


def qwk(name, g):
    """Quadratic kappa after sorting both sides by essay_id (ids checked element-wise)."""
    a = g.read("answers.csv").sort_values("essay_id")
    s = g.read(f"{name}.csv").sort_values("essay_id")
    if len(a) == 0 or len(s) != len(a) or (a.essay_id.values != s.essay_id.values).any():
        raise ValueError("ids differ")
    return cohen_kappa_score(s.score.to_numpy(), a.score.to_numpy(), weights="quadratic")


# learning-agency-lab-automated-essay-scoring-2: quadratic weighted kappa of scores 1-6, ids sorted and compared.
def generate(g):
    n = 300
    ids = g.hex_ids(n, 7)
    truth = g.rng.choice(np.arange(1, 7), n, p=[0.07, 0.27, 0.36, 0.23, 0.06, 0.01])
    g.write(pd.DataFrame({"essay_id": ids, "score": truth}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.70, 0.8406, 2700), 5), reverse=True))
    cases = {
        "perfect": truth.copy(),
        "off_by_one": np.clip(truth + g.rng.randint(-1, 2, n), 1, 6),
        "sample_like": np.full(n, 3),
        "as_floats": np.clip(truth + g.rng.randint(-1, 2, n), 1, 6).astype(float),
        "narrow_range": np.clip(truth, 2, 4),
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"essay_id": ids, "score": pred}).sample(frac=1, random_state=3), f"{name}.csv")
        g.record(name, qwk(name, g))
    noisy = cases["off_by_one"]
    # Invalid: continuous scores, NaN, text, missing/extra/duplicate ids, missing column, no rows.
    g.write(pd.DataFrame({"essay_id": ids, "score": noisy + 0.5}), "continuous.csv")
    with_nan = noisy.astype(float)
    with_nan[7] = np.nan
    g.write(pd.DataFrame({"essay_id": ids, "score": with_nan}), "nan_score.csv")
    g.write(pd.DataFrame({"essay_id": ids, "score": ["high" if v > 3 else "low" for v in noisy]}), "text_score.csv")
    g.write(pd.DataFrame({"essay_id": ids[1:], "score": noisy[1:]}), "missing_id.csv")
    g.write(pd.DataFrame({"essay_id": ids + ["zzzzzzz"], "score": list(noisy) + [3]}), "extra_id.csv")
    g.write(pd.DataFrame({"essay_id": [ids[0]] + ids[1:], "score": noisy}).assign(essay_id=lambda d: [ids[1]] + ids[1:]), "duplicate_id.csv")
    g.write(pd.DataFrame({"essay_id": ids, "prediction": noisy}), "missing_column.csv")
    g.write_text("essay_id,score\n", "empty.csv")
    for name in ["continuous", "nan_score", "text_score", "missing_id", "extra_id", "duplicate_id", "missing_column", "empty"]:
        try:
            qwk(name, g)
        except (ValueError, TypeError, AttributeError):
            pass
        else:
            raise AssertionError(f"{name} should be rejected")
        g.record(name, None)
