"""tensorflow2-question-answering: synthetic raw files and upstream's preparation steps.

Kaggle's simplified-nq-train.jsonl has one question per line: document_text (the page as
space-separated tokens), long_answer_candidates (token spans), question_text, annotations (one per
question: yes/no, short spans, the long answer), document_url and an integer example_id. Upstream
reads it in chunks of 1,000 lines and splits each chunk on its own, so the fixture has a little over
one chunk of small records and some CRLF endings. It has no blank line, as Kaggle's file has none:
upstream checks that every line of the file became a training or a test record."""
import json
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _freetext import WORDS

N_LINES = 1130
TOKENS = ["<P>", "</P>", "<Table>", "<Tr>", "<Td>", "</Td>", "</Tr>", "</Table>", "The", "river", "flows", "north", "1947", "\"a\"", "a/b", "é", "😀", "&amp;"]


def record(rs, k):
    n_tok = rs.randint(4, 10)
    tokens = [TOKENS[i] for i in rs.randint(0, len(TOKENS), size=n_tok)]
    cands = []
    for _ in range(rs.randint(0, 4)):
        a = int(rs.randint(0, n_tok - 1))
        cands.append({"start_token": a, "top_level": bool(rs.random_sample() < 0.7), "end_token": int(rs.randint(a + 1, n_tok + 1))})
    kind = rs.randint(0, 4)
    if cands and kind > 0:
        ci = int(rs.randint(0, len(cands)))
        long = {"start_token": cands[ci]["start_token"], "candidate_index": ci, "end_token": cands[ci]["end_token"]}
    else:
        long = {"start_token": -1, "candidate_index": -1, "end_token": -1}
    shorts = []
    if kind >= 2 and long["start_token"] != -1:
        for _ in range(rs.randint(1, 3)):
            s = int(rs.randint(long["start_token"], long["end_token"]))
            shorts.append({"start_token": s, "end_token": s + 1})
    yes_no = "NONE" if kind != 1 or long["start_token"] == -1 else ["YES", "NO"][rs.randint(0, 2)]
    eid = int(rs.randint(-2**62, 2**62)) * 2 + int(rs.randint(0, 2))
    rec = {
        "document_text": " ".join(tokens),
        "long_answer_candidates": cands,
        "question_text": " ".join(WORDS[i] for i in rs.randint(0, len(WORDS), size=rs.randint(1, 4))),
        "annotations": [{"yes_no_answer": yes_no, "long_answer": long, "short_answers": shorts, "annotation_id": int(rs.randint(0, 2**62)) * 4 + 3}],
        "document_url": "https://en.wikipedia.org/?oldid=%d" % k,
        "example_id": eid,
    }
    return json.dumps(rec, ensure_ascii=bool(rs.random_sample() < 0.5))


def make_raw(raw):
    rs = np.random.RandomState(23)
    with open(os.path.join(raw, "simplified-nq-train.jsonl"), "w", encoding="utf-8", newline="") as f:
        for k in range(N_LINES):
            f.write(record(rs, k) + ("\r\n" if rs.random_sample() < 0.1 else "\n"))


def answers(annotation):
    if annotation["yes_no_answer"] != "NONE":
        short = annotation["yes_no_answer"]
    elif annotation["short_answers"]:
        short = "%d:%d" % (annotation["short_answers"][0]["start_token"], annotation["short_answers"][0]["end_token"])
    else:
        short = ""
    la = annotation["long_answer"]
    long = "" if la["start_token"] == -1 else "%d:%d" % (la["start_token"], la["end_token"])
    return short, long


def prepare(raw, public, private):
    keep = ["example_id", "question_text", "document_text", "long_answer_candidates"]
    held_out = []
    for df in pd.read_json(os.path.join(raw, "simplified-nq-train.jsonl"), orient="records", lines=True, chunksize=1000):
        df["example_id"] = df["example_id"].astype(str)
        train, test = train_test_split(df, test_size=0.1, random_state=0)
        for name, part in [(os.path.join(public, "simplified-nq-train.jsonl"), train),
                           (os.path.join(private, "test.jsonl"), test),
                           (os.path.join(public, "simplified-nq-test.jsonl"), test.copy()[keep])]:
            with open(name, "a") as f:
                f.write(part.to_json(orient="records", lines=True))
        held_out.append(test[["example_id", "annotations"]].copy())
    held_out = pd.concat(held_out, ignore_index=True)
    rows = []
    for eid, annotations in zip(held_out["example_id"], held_out["annotations"]):
        short, long = answers(annotations[0])
        rows.append({"example_id": eid + "_short", "PredictionString": short})
        rows.append({"example_id": eid + "_long", "PredictionString": long})
    gold = pd.DataFrame(rows)
    gold.to_csv(os.path.join(private, "gold_submission.csv"), index=False)
    sample = gold.copy()
    sample["PredictionString"] = ""
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
