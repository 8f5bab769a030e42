"""stanford-covid-vaccine: synthetic JSON-lines raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd

TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
ERRORS = ["reactivity_error", "deg_error_Mg_pH10", "deg_error_pH10", "deg_error_Mg_50C", "deg_error_50C"]


def _num(rs, x):
    """A measurement as Kaggle's file spells it: mostly 4 decimals, with some odd spellings mixed in."""
    u = rs.random_sample()
    if u < 0.03:
        return "-0.0"
    if u < 0.06:
        return "0"
    if u < 0.09:
        return repr(float(x))  # 16-17 significant digits: more than ujson keeps
    if u < 0.1:
        return "%.1e" % (x * 1e-4)
    if u < 0.11:
        return "%.3e" % (x * 1e-17)  # below ujson's fixed-point range
    if u < 0.13:
        return "%.11f" % (rs.randint(-4096, 4096) / 2048.0)  # halfway at 10 decimals
    return repr(round(float(x), 4))


def _list(rs, values):
    return "[" + ",".join(_num(rs, v) for v in values) + "]"


def _seq(rs, alphabet, n):
    return "".join(rs.choice(list(alphabet), size=n))


def make_raw(raw_dir, n_train=90, n_test=12, length=30, scored=20):
    rs = np.random.RandomState(11)
    lines = []
    for i in range(n_train):
        sn = rs.exponential(4.0)
        passes = sn > 1.0 and rs.random_sample() < 0.8
        fields = [
            '"index":%d' % i,
            '"id":"id_%s"' % "".join(rs.choice(list("0123456789abcdef"), size=9)),
            '"sequence":"%s"' % _seq(rs, "GAUC", length),
            '"structure":"%s"' % _seq(rs, "().", length),
            '"predicted_loop_type":"%s"' % _seq(rs, "SMIBHEX", length),
            '"signal_to_noise":%s' % ("0.0" if i % 17 == 3 else repr(round(sn, 3))),
            '"SN_filter":%s' % ("1.0" if passes else "0.0"),
            '"seq_length":%d' % length,
            '"seq_scored":%d' % scored,
        ]
        for name in ERRORS:
            fields.append('"%s":%s' % (name, _list(rs, rs.exponential(0.2, size=scored))))
        for name in TARGETS:
            fields.append('"%s":%s' % (name, _list(rs, rs.normal(0.5, 0.6, size=scored))))
        lines.append("{" + ",".join(fields) + "}")
    with open(os.path.join(raw_dir, "train.json"), "w") as f:
        f.write("\n".join(lines) + "\n")
    lines = []
    for i in range(n_test):
        n = length if i % 3 else length + 10
        lines.append('{"index":%d,"id":"id_%s","sequence":"%s","structure":"%s","predicted_loop_type":"%s","seq_length":%d,"seq_scored":%d}' % (
            i, "".join(rs.choice(list("0123456789abcdef"), size=9)), _seq(rs, "GAUC", n), _seq(rs, "().", n), _seq(rs, "SMIBHEX", n), n, scored if n == length else scored + 8))
    with open(os.path.join(raw_dir, "test.json"), "w") as f:
        f.write("\n".join(lines) + "\n")
    ids = [l.split('"id":"')[1].split('"')[0] for l in lines]
    rows = []
    for l, i in zip(lines, ids):
        n = int(l.split('"seq_length":')[1].split(",")[0])
        rows += [["%s_%d" % (i, j)] + [0.0] * 5 for j in range(n)]
    pd.DataFrame(rows, columns=["id_seqpos"] + TARGETS).to_csv(os.path.join(raw_dir, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    train = pd.read_json(os.path.join(raw, "train.json"), lines=True)
    test = pd.read_json(os.path.join(raw, "test.json"), lines=True)
    n_test = int(len(train) * 0.1)
    # Only rows passing the signal-to-noise filter may be held out.
    chosen = train[train["SN_filter"] > 0].sample(n=n_test, random_state=0).index
    is_test = train.index.isin(chosen)
    new_train = train[~is_test].copy()
    new_test = train[is_test].copy()

    rows = []
    for _, r in new_test.iterrows():
        scored, length = r["seq_scored"], r["seq_length"]
        for j in range(length):
            rec = {"id_seqpos": "%s_%d" % (r["id"], j)}
            for t in TARGETS:
                rec[t] = r[t][j] if j < scored else 0.0
            rec["keep"] = j < scored
            rows.append(rec)
    answers = pd.DataFrame(rows)
    answers.to_csv(os.path.join(private, "test.csv"), index=False, float_format="%.10f")

    new_train["index"] = range(len(new_train))
    new_train.to_json(os.path.join(public, "train.json"), orient="records", lines=True)
    public_test = new_test[test.columns].copy()
    public_test["index"] = range(len(public_test))
    public_test.to_json(os.path.join(public, "test.json"), orient="records", lines=True)

    sample = answers[["id_seqpos"] + TARGETS].copy()
    sample.loc[:, TARGETS] = 0.0
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False, float_format="%.10f")
