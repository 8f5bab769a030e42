"""predict-volcanic-eruptions-ingv-oe: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import mean_absolute_error

ID, TARGET = "segment_id", "time_to_eruption"


def score(g, name):
    """Upstream's steps: both columns, equal id sets, inner join on the id (a repeated id counts
    once per copy), scikit-learn's MAE, then Python's round() to an int; None where one fails."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    if TARGET not in s.columns or ID not in s.columns:
        return None
    if set(s[ID]) != set(a[ID]):
        return None
    merged = a.merge(s[[ID, TARGET]], on=ID, suffixes=("_true", "_pred"))
    try:
        mae = mean_absolute_error(merged[TARGET + "_true"], merged[TARGET + "_pred"])
        return int(round(mae))
    except (ValueError, OverflowError):
        return None


# predict-volcanic-eruptions-ingv-oe: MAE of time_to_eruption per segment, reported as a whole number.
def generate(g):
    n = 40
    ids = [int(i) for i in g.rng.permutation(np.unique(g.rng.randint(1_000_000, 2_147_000_000, n)))]
    assert len(ids) == n
    truth = g.rng.randint(6_000, 49_000_000, n)
    g.write(pd.DataFrame({ID: ids, TARGET: truth}), "answers.csv")
    # Kaggle's private leaderboard: about 620 teams, best MAE near 3.8 million.
    g.leaderboard(sorted(np.round(g.rng.uniform(3_800_000, 16_000_000, 620)).astype(int)))
    noisy = truth + np.round(g.rng.normal(0, 4_000_000, n), 2)
    frame = lambda pred, i=ids: pd.DataFrame({ID: i, TARGET: pred})  # noqa: E731

    def tie(k):
        # One error of 40k+20 over 40 rows: an MAE of exactly k + 0.5.
        p = truth.copy()
        p[7] += 40 * k + 20
        return frame(p)

    valid = {
        "perfect": frame(truth),
        "sample": frame(np.zeros(n, dtype=int)),
        "noisy": frame(noisy),
        "shuffled": frame(noisy).sample(frac=1, random_state=5),
        "mean_constant": frame(np.full(n, truth.mean())),
        "extra_column": frame(noisy).assign(note="x"),
        "float_ids": pd.DataFrame({ID: np.array(ids, dtype=float), TARGET: noisy}),
        # Set comparison then join: a repeated id is scored once per copy.
        "repeated_id": frame(np.append(noisy, noisy[3] + 9_000_000), ids + ids[3:4]),
        # Python's round() breaks ties to even: 2.5 -> 2, 3.5 -> 4.
        "tie_even": tie(2),
        "tie_odd": tie(3),
        "as_bool": frame(noisy > truth),
    }
    for name, df in valid.items():
        g.write(df, f"{name}.csv")
        got = score(g, name)
        assert got is not None, name
        g.record(name, got)
    # Text that float() reads (digit groups) in a column pandas left as text still scores.
    g.write_text(
        f"{ID},{TARGET}\n" + "".join(f"{i},{int(t):_}\n" for i, t in zip(ids, truth)), "underscore_digits.csv"
    )
    g.record("underscore_digits", score(g, "underscore_digits"))
    base = frame(noisy)
    invalid = {
        "missing_target": base[[ID]],
        "missing_id_column": base[[TARGET]],
        "wrong_column_name": base.rename(columns={TARGET: "prediction"}),
        "missing_id": base.iloc[1:],
        "extra_id": pd.concat([base, pd.DataFrame({ID: [1], TARGET: [5.0]})]),
        "replaced_id": base.assign(**{ID: ids[:-1] + [1]}),
        "text_ids": base.assign(**{ID: [f"seg_{i}" for i in ids]}),
        "nan": base.assign(**{TARGET: np.where(np.arange(n) == 4, np.nan, noisy)}),
        "inf": base.assign(**{TARGET: np.where(np.arange(n) == 4, np.inf, noisy)}),
        "text": base.assign(**{TARGET: ["soon"] + list(noisy[1:])}),
        "overflow": base.assign(**{TARGET: np.where(np.arange(n) < 2, 1.7e308, noisy)}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(g, name) is None, name
        g.record(name, None)
    assert g.expected["perfect"] == 0
    assert g.expected["sample"] == int(round(np.mean(truth)))
    assert g.expected["tie_even"] == 2 and g.expected["tie_odd"] == 4
    assert g.expected["shuffled"] == g.expected["noisy"] == g.expected["float_ids"] == g.expected["extra_column"]
    assert g.expected["repeated_id"] > g.expected["noisy"]
    assert g.expected["underscore_digits"] == 0
