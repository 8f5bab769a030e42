"""lmsys-chatbot-arena: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

OUTCOMES = ["winner_model_a", "winner_model_b", "winner_tie"]


def score(g, name):
    """Upstream's steps written out: columns, row count, element-wise [0, 1], row sums rounding
    to 1 at 6 decimals, ids equal after sorting, then log loss without renormalisation."""
    s = g.read(name + ".csv")
    a = g.read("answers.csv")
    if any(c not in s.columns for c in ["id"] + OUTCOMES) or len(s) != len(a):
        return None
    try:
        p = s[OUTCOMES].to_numpy(dtype=float)
    except ValueError:
        return None  # text: pandas' `>= 0` raises a TypeError upstream
    if not ((p >= 0) & (p <= 1)).all():
        return None
    if not (np.round(p[:, 0] + p[:, 1] + p[:, 2], 6) == 1).all():
        return None
    s = s.sort_values("id")
    a = a.sort_values("id")
    if (s["id"].to_numpy() != a["id"].to_numpy()).any():
        return None
    return g.log_loss_np(a[OUTCOMES].to_numpy(), s[OUTCOMES].to_numpy(dtype=float))


# lmsys-chatbot-arena: 3-class log loss on one-hot answers (the whole train rows), rows matched by id.
def generate(g):
    n = 120
    ids = np.unique(g.rng.randint(30_000, 4_294_000_000, n + 20, dtype=np.int64))[:n]
    g.rng.shuffle(ids)
    winner = g.rng.choice(3, n, p=[0.35, 0.34, 0.31])
    onehot = np.eye(3, dtype=int)[winner]
    models = ["gpt-4-1106-preview", "claude-2.1", "llama-2-70b-chat", "mixtral-8x7b-instruct-v0.1", "vicuna-13b"]
    answers = pd.DataFrame(
        {
            "id": ids,
            "model_a": g.rng.choice(models, n),
            "model_b": g.rng.choice(models, n),
            "prompt": ['["What is %d + %d?"]' % (i % 7, i % 5) for i in range(n)],
            "response_a": ['["It is %d."]' % (i % 11) for i in range(n)],
            "response_b": ['["The answer, I think, is %d."]' % (i % 13) for i in range(n)],
            **{c: onehot[:, k] for k, c in enumerate(OUTCOMES)},
        }
    )
    g.write(answers, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.8799, 1.1, 1849), 5)))
    logits = g.rng.normal(0, 1, (n, 3)) + onehot * 1.2
    soft = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    def frame(p, cols=OUTCOMES, rows=slice(None)):
        return pd.DataFrame({"id": ids[rows], **{c: p[rows, k] for k, c in enumerate(cols)}})
    subs = {
        "uniform": frame(np.full((n, 3), 1 / 3)),
        "softmax_shuffled": frame(soft).sample(frac=1, random_state=5),
        "onehot_perfect": frame(onehot),
        "confident_wrong": frame(np.eye(3, dtype=int)[(winner + (g.rng.rand(n) < 0.1)) % 3]),
        # Columns matched by name; an extra column is ignored.
        "reordered_extra_column": frame(soft).assign(note="x")[["winner_tie", "id", "note", "winner_model_b", "winner_model_a"]],
    }
    # A row 4e-7 over 1 still rounds to 1 at 6 decimals and is scored as submitted.
    near = soft.copy()
    near[0] = [0.5, 0.3, 0.2000004]
    subs["sum_within_rounding"] = frame(near)
    # Invalid: 6e-7 over rounds to 1.000001; one row unnormalised; out of range; NaN; text.
    over = soft.copy()
    over[1] = [0.5, 0.3, 0.2000006]
    subs["sum_over_rounding"] = frame(over)
    half = soft.copy()
    half[:, 0] *= 0.5
    subs["not_normalised"] = frame(half)
    neg = soft.copy()
    neg[2] = [-0.1, 0.6, 0.5]
    subs["negative"] = frame(neg)
    nan = soft.copy()
    nan[3, 2] = np.nan
    subs["nan_value"] = frame(nan)
    subs["text_value"] = frame(soft).astype({"winner_tie": object})
    subs["text_value"].loc[4, "winner_tie"] = "high"
    subs["missing_column"] = frame(soft).drop(columns=["winner_tie"])
    subs["missing_row"] = frame(soft, rows=slice(1, None))
    subs["duplicate_id"] = frame(soft).assign(id=np.r_[ids[1], ids[1:]])
    subs["wrong_id"] = frame(soft).assign(id=np.r_[ids[:-1], 7])
    for name, df in subs.items():
        g.write(df, name + ".csv")
        g.record(name, score(g, name))
    assert g.expected["uniform"] == 1.09861
    for name in ["sum_over_rounding", "not_normalised", "negative", "nan_value", "text_value", "missing_column",
                 "missing_row", "duplicate_id", "wrong_id"]:
        assert g.expected[name] is None, name
    assert g.expected["sum_within_rounding"] is not None
