"""ventilator-pressure-prediction: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd


def score(g, name):
    """Upstream's steps: both columns, equal row counts, ids equal after sorting, keep the rows
    whose answer has u_out == 0, then MAE (which refuses NaN/inf/text only among those rows)."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if "id" not in s.columns or "pressure" not in s.columns or len(s) != len(a):
        return None
    s = s.sort_values("id").reset_index(drop=True)
    a = a.sort_values("id").reset_index(drop=True)
    if (s["id"].to_numpy() != a["id"].to_numpy()).any():
        return None
    scored = a[a["u_out"] == 0]
    s = s[s["id"].isin(scored["id"])].sort_values("id")
    try:
        p = np.asarray(s["pressure"].to_numpy(), dtype=float)
    except ValueError:
        return None
    if not np.isfinite(p).all():
        return None
    return np.mean(np.abs(p - scored.sort_values("id")["pressure"].to_numpy(dtype=float)))


# ventilator-pressure-prediction: MAE of pressure over the inspiratory rows (u_out == 0) only.
def generate(g):
    breaths, steps = 5, 80
    n = breaths * steps
    t = np.tile(np.arange(steps) * 0.0335, breaths)
    u_out = np.tile((np.arange(steps) >= 30).astype(int), breaths)
    u_in = np.where(u_out == 0, g.rng.uniform(0, 30, n), 0)
    pressure = np.where(u_out == 0, 5 + 25 * (1 - np.exp(-t * 4)), 6) + g.rng.normal(0, 0.8, n)
    ids = np.arange(1, n + 1)
    answers = pd.DataFrame(
        {
            "id": ids,
            "breath_id": np.repeat(np.sort(g.rng.choice(125000, breaths, replace=False)), steps),
            "R": np.repeat(g.rng.choice([5, 20, 50], breaths), steps),
            "C": np.repeat(g.rng.choice([10, 20, 50], breaths), steps),
            "time_step": t,
            "u_in": u_in,
            "u_out": u_out,
            "pressure": pressure,
        }
    )
    answers.to_csv(g.path("answers.csv"), index=False, float_format="%.10g")
    pressure = g.read("answers.csv")["pressure"].to_numpy()
    g.leaderboard(sorted(np.round(g.rng.uniform(0.1, 0.9, 2605), 5)))
    noisy = pressure + g.rng.normal(0, 0.7, n)
    expiratory = np.flatnonzero(u_out == 1)
    inspiratory = np.flatnonzero(u_out == 0)
    def sub(p, i=ids):
        return pd.DataFrame({"id": i, "pressure": p})
    subs = {
        "zeros": sub(np.zeros(n, dtype=int)),
        "perfect": sub(pressure),
        "noisy_shuffled": sub(noisy).sample(frac=1, random_state=11),
        # Only inspiratory rows count: garbage in the expiratory phase changes nothing.
        "wrong_expiratory_only": sub(np.where(u_out == 1, 99.0, noisy)),
        "nan_in_expiratory": sub(np.where(np.arange(n) == expiratory[3], np.nan, noisy)),
        "text_in_expiratory": sub(noisy).astype({"pressure": object}),
        "nan_in_inspiratory": sub(np.where(np.arange(n) == inspiratory[3], np.nan, noisy)),
        "text_in_inspiratory": sub(noisy).astype({"pressure": object}),
        "inf_in_inspiratory": sub(np.where(np.arange(n) == inspiratory[7], np.inf, noisy)),
        "missing_column": pd.DataFrame({"id": ids, "Pressure": noisy}),
        "missing_row": sub(noisy[1:], ids[1:]),
        "duplicate_id": sub(noisy, np.r_[ids[:-1], ids[0]]),
        "wrong_id": sub(noisy, np.r_[ids[:-1], n + 1]),
    }
    subs["text_in_expiratory"].loc[expiratory[5], "pressure"] = "oops"
    subs["text_in_inspiratory"].loc[inspiratory[5], "pressure"] = "oops"
    for name, df in subs.items():
        g.write(df, name + ".csv")
        g.record(name, score(g, name))
    assert g.expected["perfect"] == 0
    assert g.expected["nan_in_expiratory"] == g.expected["text_in_expiratory"] == g.expected["wrong_expiratory_only"]
    for name in ["nan_in_inspiratory", "text_in_inspiratory", "inf_in_inspiratory", "missing_column", "missing_row", "duplicate_id", "wrong_id"]:
        assert g.expected[name] is None, name
