"""stanford-covid-vaccine: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

SCORED = ["reactivity", "deg_Mg_pH10", "deg_Mg_50C"]
TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]


def score(g, name):
    """Upstream's steps: equal row counts, the id and five target columns, id_seqpos equal after
    sorting both sides; then the `keep` flags of the answers *file* positions select submission
    rows (pandas aligns the boolean Series on row labels), taken in sorted-id order and paired with
    the kept answers in sorted-id order; RMSE per scored column (finite numbers required, text
    converted as float() does), averaged."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if len(s) != len(a) or not {"id_seqpos", *TARGETS} <= set(s.columns):
        return None
    s_order = np.argsort(s["id_seqpos"].to_numpy().astype(str), kind="stable")
    a_order = np.argsort(a["id_seqpos"].to_numpy().astype(str), kind="stable")
    s_ids = s["id_seqpos"].to_numpy()[s_order]
    a_ids = a["id_seqpos"].to_numpy()[a_order]
    if not all(isinstance(x, str) and x == y for x, y in zip(s_ids, a_ids)):
        return None
    keep = a["keep"].to_numpy(dtype=bool)
    s_rows = s_order[keep[s_order]]
    a_rows = a_order[keep[a_order]]
    errors = []
    for c in SCORED:
        try:
            pred = np.array([float(v) for v in s[c].to_numpy()[s_rows]], dtype=float)
        except ValueError:
            return None
        if not np.isfinite(pred).all():
            return None
        true = a[c].to_numpy(dtype=float)[a_rows]
        errors.append(np.sqrt(np.mean((true - pred) ** 2)))
    return np.mean(errors)


# stanford-covid-vaccine: MCRMSE of reactivity, deg_Mg_pH10 and deg_Mg_50C over the scored (keep) positions.
def generate(g):
    seqs = ["id_" + h for h in g.hex_ids(3, 9)]
    length, scored = 20, 12
    records = []
    for sid in seqs:
        for j in range(length):
            row = {"id_seqpos": f"{sid}_{j}"}
            for c in TARGETS:
                row[c] = float(np.round(np.abs(g.rng.normal(0.4, 0.5)), 6)) if j < scored else 0.0
            row["keep"] = j < scored
            records.append(row)
    pd.DataFrame(records).to_csv(g.path("answers.csv"), index=False, float_format="%.10f")
    ans = g.read("answers.csv")
    n = len(ans)
    g.leaderboard(sorted(np.round(g.rng.uniform(0.34, 0.62, 1636), 5)))

    ids = ans["id_seqpos"].to_numpy()
    keep = ans["keep"].to_numpy()
    truth = {c: ans[c].to_numpy() for c in TARGETS}
    noise = {c: np.round(truth[c] + g.rng.normal(0, 0.2, n), 6) for c in TARGETS}

    def sub(values, i=ids):
        return pd.DataFrame({"id_seqpos": i, **{c: values[c] for c in TARGETS}})

    zeros = {c: np.zeros(n) for c in TARGETS}
    unscored_garbage = {c: np.where(keep, noise[c], np.nan) for c in TARGETS}
    shuffled = sub(noise).sample(frac=1, random_state=3)
    subs = {
        "perfect": sub(truth),
        "sample_zeros": sub(zeros),
        "noisy": sub(noise),
        # A different row order scores other rows (the keep mask follows file positions).
        "noisy_shuffled": shuffled,
        "noisy_sorted_by_id": sub(noise).sort_values("id_seqpos"),
        "nan_in_unscored_rows": sub(unscored_garbage),
        "text_in_unscored_row": sub(noise).astype({"reactivity": object}),
        "unscored_columns_text": sub(noise).assign(deg_pH10="n/a", deg_50C="?"),
        "extra_columns": sub(noise).assign(id=lambda d: d["id_seqpos"].str.rsplit("_", n=1).str[0], seqpos=1),
        "integer_predictions": sub({c: np.round(noise[c]).astype(int) for c in TARGETS}),
        "bool_predictions": sub({c: noise[c] > 0.4 for c in TARGETS}),
        # Shuffled: a NaN at a file position whose answer row is not kept is never read.
        "shuffled_nan_at_unscored_position": shuffled.copy(),
        "shuffled_nan_at_scored_position": shuffled.copy(),
        "nan_in_scored_row": sub({**noise, "deg_Mg_50C": np.where(np.arange(n) == 3, np.nan, noise["deg_Mg_50C"])}),
        "inf_in_scored_row": sub({**noise, "reactivity": np.where(np.arange(n) == 5, np.inf, noise["reactivity"])}),
        "text_in_scored_row": sub(noise).astype({"deg_Mg_pH10": object}),
        "missing_unscored_column": sub(noise).drop(columns=["deg_50C"]),
        "missing_scored_column": sub(noise).drop(columns=["reactivity"]),
        "missing_row": sub(noise).iloc[1:],
        "extra_row": pd.concat([sub(noise), sub(noise).iloc[:1]]),
        "duplicate_id": sub(noise, np.concatenate([ids[:-1], ids[:1]])),
        "wrong_id": sub(noise, np.concatenate([ids[:-1], [ids[-1] + "x"]])),
    }
    subs["text_in_unscored_row"].iloc[scored + 2, 1] = "oops"
    subs["text_in_scored_row"].iloc[4, 2] = "oops"
    subs["shuffled_nan_at_unscored_position"].iloc[np.flatnonzero(~keep)[1], 4] = np.nan
    subs["shuffled_nan_at_scored_position"].iloc[np.flatnonzero(keep)[1], 4] = np.nan
    for name, df in subs.items():
        g.write(df, name + ".csv")
        g.record(name, score(g, name))
    e = g.expected
    assert e["perfect"] == 0
    assert e["noisy"] == e["nan_in_unscored_rows"] == e["text_in_unscored_row"] == e["unscored_columns_text"] == e["extra_columns"]
    assert e["noisy_shuffled"] != e["noisy"] and e["noisy_sorted_by_id"] != e["noisy"]
    assert e["shuffled_nan_at_unscored_position"] == e["noisy_shuffled"]
    for name in ["shuffled_nan_at_scored_position", "nan_in_scored_row", "inf_in_scored_row", "text_in_scored_row",
                 "missing_unscored_column", "missing_scored_column", "missing_row", "extra_row", "duplicate_id", "wrong_id"]:
        assert e[name] is None, name
