"""rsna-2022-cervical-spine-fracture-detection: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

LABELS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]
NEGATIVE = np.array([7, 1, 1, 1, 1, 1, 1, 1], dtype=float)
POSITIVE = np.array([14, 2, 2, 2, 2, 2, 2, 2], dtype=float)


def score(g, name):
    """Upstream's steps: both columns present, every prediction in [0, 1] (NaN fails), ids equal
    after sorting, rows regrouped per study (split at the first "_"), then per study the weighted
    mean of clipped binary log losses, and the mean over studies."""
    a = g.read("answers.csv")
    s = g.read(f"{name}.csv")
    assert {"row_id", "fractured"} <= set(s.columns)
    assert pd.api.types.is_numeric_dtype(s.fractured)
    pred = s.fractured.to_numpy(dtype=float)
    assert ((pred >= 0) & (pred <= 1)).all()
    assert len(s) == len(a) and sorted(s.row_id) == sorted(a.row_id)

    def table(df):
        parts = df.row_id.str.split("_", n=1, expand=True)
        wide = pd.DataFrame({"study": parts[0], "label": parts[1], "v": df.fractured.astype(float)})
        return wide.pivot(index="study", columns="label", values="v").sort_index()[LABELS]

    y = table(a).to_numpy()
    p = np.clip(table(s).loc[table(a).index].to_numpy(), 1e-15, 1 - 1e-15)
    loss = np.where(y == 1, -np.log(p), -np.log(1 - p))
    w = np.where(y == 1, POSITIVE, NEGATIVE)
    return float(np.mean((loss * w).sum(axis=1) / w.sum(axis=1)))


def generate(g):
    studies = ["1.2.826.0.1.3680043.%d" % v for v in g.rng.choice(np.arange(1000, 32000), 14, replace=False)]
    wide = []
    for st in studies:
        vert = (g.rng.rand(7) < 0.12).astype(int)
        wide.append({"StudyInstanceUID": st, "patient_overall": int(vert.any()), **{f"C{k + 1}": int(v) for k, v in enumerate(vert)}})
    wide = pd.DataFrame(wide)
    # As the preparer melts it: all studies' patient_overall first, then C1, ...
    ans = wide.melt(id_vars="StudyInstanceUID", var_name="prediction_type", value_name="fractured")
    ans["row_id"] = ans.StudyInstanceUID + "_" + ans.prediction_type
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.28, 0.7, 300), 4)))
    ids = ans.row_id.to_numpy()
    truth = ans.fractured.to_numpy()
    n = len(ans)

    def sub(values, row_ids=ids):
        return pd.DataFrame({"row_id": row_ids, "fractured": values})

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

    assert round(valid("perfect", sub(truth)), 5) == 0
    assert abs(valid("sample_like", sub(np.full(n, 0.5))) - np.log(2)) < 1e-12
    noisy = np.round(np.clip(truth * 0.55 + g.rng.rand(n) * 0.45, 0, 1), 4)
    valid("noisy", sub(noisy).sample(frac=1, random_state=1))
    valid("confident_wrong", sub(1 - truth).sample(frac=1, random_state=2))
    valid("zeros_and_ones", sub((noisy > 0.5).astype(int)))
    valid("boolean_predictions", sub(noisy > 0.3).sample(frac=1, random_state=3))
    valid("all_zero_floats", sub(np.zeros(n)))
    valid("extra_column", sub(noisy).assign(StudyInstanceUID=ans.StudyInstanceUID))

    invalid("missing_fractured_column", sub(noisy).drop(columns="fractured"))
    invalid("missing_row_id_column", sub(noisy).drop(columns="row_id"))
    gap = sub(noisy)
    gap.loc[6, "fractured"] = np.nan
    invalid("missing_prediction", gap)
    invalid("above_one", sub(np.where(np.arange(n) == 9, 1.5, noisy)))
    invalid("negative", sub(np.where(np.arange(n) == 2, -0.01, noisy)))
    text = sub(noisy).astype({"fractured": object})
    text.loc[3, "fractured"] = "high"
    invalid("text_prediction", text)
    invalid("missing_row", sub(noisy).iloc[1:])
    invalid("extra_row", pd.concat([sub(noisy), sub([0.5], [studies[0] + "_C8"])]))
    dup = ids.copy()
    dup[1] = dup[0]
    invalid("duplicate_id", sub(noisy, dup))
    invalid("study_ids_only", sub(noisy, ans.StudyInstanceUID.to_numpy()))
    invalid("wide_format", wide.assign(**{c: 0.5 for c in LABELS}))
