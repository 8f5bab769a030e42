"""tensorflow2-question-answering: JSONL answers, leaderboard and submissions, scored independently
(the row rules written out in Python, then the micro average computed two ways)."""
import json

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

WORDS = "the a of river city in was is built by king queen <P> </P> <Table> <Tr> <Td> </Td> 1871 war song album".split()


def read_submission(g, name):
    # Upstream runs pandas >= 2.2, whose default missing-value tokens include "None" (1.5's do not).
    return pd.read_csv(g.path(f"{name}.csv"), float_precision="round_trip", na_values=["None"])


def accepted(annotation, long):
    """The answers a prediction may match, as tuples of ints or yes/no strings."""
    if long:
        la = annotation["long_answer"]
        return [] if la["start_token"] == -1 else [(int(la["start_token"]), int(la["end_token"]))]
    out = [(int(s["start_token"]), int(s["end_token"])) for s in annotation["short_answers"]]
    if annotation["yes_no_answer"] != "NONE":
        out.append(annotation["yes_no_answer"])
    return out


def score(g, name, records):
    """Upstream's rules: 2 rows per question, both columns, ids exactly the expected set once each,
    every PredictionString "a:b" (Python ints), "YES", "NO" or blank; None where any fails."""
    s = read_submission(g, name)
    if len(s) != 2 * len(records) or not {"example_id", "PredictionString"} <= set(s.columns):
        return None
    s = s.fillna("").astype(str)
    expected = {f"{r['example_id']}{suffix}" for r in records for suffix in ("_long", "_short")}
    ids = list(s["example_id"])
    if set(ids) != expected or len(set(ids)) != len(ids):
        return None
    gold = {r["example_id"]: r["annotations"][0] for r in records}
    y_true, y_pred = [], []
    for sid, text in zip(ids, s["PredictionString"]):
        pred = text.strip()
        parts = pred.split(":")
        if len(parts) == 2:
            try:
                pred = (int(parts[0]), int(parts[1]))
            except ValueError:
                return None
        elif pred not in ("YES", "NO", ""):
            return None
        long = sid.endswith("_long")
        valid = accepted(gold[sid[: -len("_long")] if long else sid[: -len("_short")]], long)
        y_pred.append(1 if pred != "" else 0)
        y_true.append((pred in valid) if pred != "" else bool(valid))
    y_true = np.array(y_true, dtype=int)
    y_pred = np.array(y_pred, dtype=int)
    agree = float(np.mean(y_true == y_pred))
    # With every row one binary decision, the micro average over both classes is the agreement rate.
    assert abs(agree - f1_score(y_true, y_pred, average="micro")) < 1e-12
    return agree


def make_record(rng, i):
    n_tokens = int(rng.randint(60, 120))
    tokens = list(rng.choice(WORDS, n_tokens))
    example_id = str(int(rng.randint(-2**62, 2**62, dtype=np.int64)) * 2 + int(rng.randint(0, 2)))
    candidates = []
    start = 0
    while start < n_tokens - 5:
        end = min(n_tokens, start + int(rng.randint(5, 25)))
        candidates.append({"start_token": start, "end_token": end, "top_level": True})
        start = end
    kind = rng.rand()
    long_answer = {"start_token": -1, "end_token": -1, "candidate_index": -1}
    short_answers = []
    yes_no = "NONE"
    if kind > 0.45:
        ci = int(rng.randint(0, len(candidates)))
        c = candidates[ci]
        long_answer = {"start_token": c["start_token"], "end_token": c["end_token"], "candidate_index": ci}
        if kind > 0.9:
            yes_no = "YES" if rng.rand() < 0.5 else "NO"
        elif kind > 0.6:
            for _ in range(1 if rng.rand() < 0.7 else 2):
                a = int(rng.randint(c["start_token"], c["end_token"] - 1))
                short_answers.append({"start_token": a, "end_token": a + int(rng.randint(1, 3))})
    annotation = {
        "yes_no_answer": yes_no,
        "long_answer": long_answer,
        "short_answers": short_answers,
        "annotation_id": 10**17 * 59 + i * 7919,
    }
    return {
        "document_text": " ".join(tokens),
        "long_answer_candidates": candidates,
        "question_text": "who built the " + str(rng.choice(WORDS)),
        "annotations": [annotation],
        "document_url": f"https://en.wikipedia.org//w/index.php?title=Page_{i}",
        "example_id": example_id,
    }


def gold_rows(records):
    """Upstream's gold submission: per question the short row (yes/no first, else the first span) then the long row."""
    rows = []
    for r in records:
        a = r["annotations"][0]
        if a["yes_no_answer"] != "NONE":
            short = a["yes_no_answer"]
        elif a["short_answers"]:
            short = f"{a['short_answers'][0]['start_token']}:{a['short_answers'][0]['end_token']}"
        else:
            short = ""
        la = a["long_answer"]
        long = "" if la["start_token"] == -1 else f"{la['start_token']}:{la['end_token']}"
        rows.append((f"{r['example_id']}_short", short))
        rows.append((f"{r['example_id']}_long", long))
    return rows


# tensorflow2-question-answering: per "<id>_long" / "<id>_short" row, right or wrong, averaged ("micro F1").
def generate(g):
    rng = g.rng
    records = [make_record(rng, i) for i in range(40)]
    g.write_text("".join(json.dumps(r) + "\n" for r in records), "answers.jsonl")
    g.leaderboard(sorted(np.round(rng.uniform(0.1, 0.72, 1233), 5), reverse=True))
    rows = gold_rows(records)
    ids = [i for i, _ in rows]
    gold = [p for _, p in rows]
    by_id = {r["example_id"]: r for r in records}

    def sub(preds, name, ids=ids, shuffle=False):
        df = pd.DataFrame({"example_id": ids, "PredictionString": preds})
        g.write(df.sample(frac=1, random_state=3) if shuffle else df, f"{name}.csv")

    def other_span(i):
        return f"{rng.randint(0, 50)}:{rng.randint(50, 120)}"

    sub(gold, "gold_submission")
    sub(gold, "gold_shuffled", shuffle=True)
    sub([""] * len(ids), "sample_submission")
    sub(["YES"] * len(ids), "all_yes")
    noisy = [p if rng.rand() < 0.6 else ("" if rng.rand() < 0.5 else other_span(k)) for k, p in enumerate(gold)]
    sub(noisy, "noisy")
    # Every question's long-answer candidate 0 for long rows, nothing for short rows.
    first_candidate = []
    for sid in ids:
        r = by_id[sid.rsplit("_", 1)[0]]
        c = r["long_answer_candidates"][0]
        first_candidate.append(f"{c['start_token']}:{c['end_token']}" if sid.endswith("_long") else "")
    sub(first_candidate, "first_candidate")
    # The second of two short spans is as good as the first; swapping long and short spans is not.
    alt = list(gold)
    for k, sid in enumerate(ids):
        a = by_id[sid.rsplit("_", 1)[0]]["annotations"][0]
        if sid.endswith("_short") and len(a["short_answers"]) > 1:
            alt[k] = f"{a['short_answers'][1]['start_token']}:{a['short_answers'][1]['end_token']}"
    assert alt != gold
    sub(alt, "second_short_span")
    swapped = [gold[k + 1] if k % 2 == 0 else gold[k - 1] for k in range(len(gold))]
    sub(swapped, "long_and_short_swapped")
    # Python's int() and str.strip(): blanks, signs, leading zeros, digit groups and full-width digits all parse.
    loose = list(gold)
    spans = [k for k, p in enumerate(gold) if ":" in p]
    a, b = gold[spans[0]].split(":")
    loose[spans[0]] = f"  {a} : {b}\t"
    a, b = gold[spans[1]].split(":")
    loose[spans[1]] = f"+00{a}:{b}"
    a, b = gold[spans[2]].split(":")
    loose[spans[2]] = "".join(chr(0xFF10 + int(ch)) for ch in a) + ":" + b
    a, b = gold[spans[3]].split(":")
    loose[spans[3]] = f"{a}:{b}".replace(b, b[0] + "_" + b[1:]) if len(b) > 1 else f"{a}:{b}"
    sub(loose, "python_int_spellings")
    # pandas reads "None", "NA" and "nan" as missing; fillna("") makes them blank predictions.
    na = list(gold)
    blanks = [k for k, p in enumerate(gold) if p == ""]
    na[blanks[0]], na[blanks[1]], na[blanks[2]] = "None", "NA", "nan"
    na[spans[4]] = "None"
    sub(na, "missing_value_tokens")
    # "yes" is not "YES"; YES on a long row is simply wrong.
    yes_long = ["YES" if sid.endswith("_long") else p for sid, p in zip(ids, gold)]
    sub(yes_long, "yes_for_long_rows")
    df = pd.DataFrame({"PredictionString": noisy, "example_id": ids, "confidence": 0.5})
    g.write(df, "extra_column_and_order.csv")
    valid = (
        "gold_submission", "gold_shuffled", "sample_submission", "all_yes", "noisy", "first_candidate",
        "second_short_span", "long_and_short_swapped", "python_int_spellings", "missing_value_tokens",
        "yes_for_long_rows", "extra_column_and_order",
    )
    for name in valid:
        got = score(g, name, records)
        assert got is not None, name
        g.record(name, got)
    assert g.expected["gold_submission"] == g.expected["gold_shuffled"] == g.expected["second_short_span"] == 1.0
    assert g.expected["python_int_spellings"] == 1.0
    blank_right = sum(1 for p in gold if p == "") / len(gold)
    assert g.expected["sample_submission"] == round(blank_right, 5)

    # Refused: columns, row counts, ids, and predictions that are not "a:b", "YES", "NO" or blank.
    g.write(pd.DataFrame({"example_id": ids, "prediction": gold}), "wrong_column_name.csv")
    g.write(pd.DataFrame({"PredictionString": gold}), "no_id_column.csv")
    sub(gold[:-1], "missing_row", ids=ids[:-1])
    sub(gold + [""], "extra_row", ids=ids + ["123_long"])
    sub(gold, "duplicate_id", ids=ids[:-1] + ids[:1])
    sub(gold, "unknown_id", ids=ids[:-1] + ["123_long"])
    sub(gold, "id_without_suffix", ids=[i.rsplit("_", 1)[0] if k == 3 else i for k, i in enumerate(ids)])
    sub(gold, "long_short_mislabelled", ids=[i.replace("_long", "_LONG") for i in ids])
    for name, bad in (
        ("dash_span", "12-34"), ("three_part_span", "1:2:3"), ("half_span", "12:"), ("lowercase_yes", "yes"),
        ("float_span", "12.0:34"), ("number_only", "17"), ("unknown_word", "UNKNOWN"),
    ):
        preds = list(gold)
        preds[5] = bad
        sub(preds, name)
    sub([str(k) for k in range(len(ids))], "all_numbers")
    g.write_text("example_id,PredictionString\n", "header_only.csv")
    invalid = (
        "wrong_column_name", "no_id_column", "missing_row", "extra_row", "duplicate_id", "unknown_id", "id_without_suffix",
        "long_short_mislabelled", "dash_span", "three_part_span", "half_span", "lowercase_yes", "float_span",
        "number_only", "unknown_word", "all_numbers", "header_only",
    )
    for name in invalid:
        assert score(g, name, records) is None, name
        g.record(name, None)
