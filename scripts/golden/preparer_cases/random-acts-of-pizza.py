"""random-acts-of-pizza: synthetic raw files and upstream's preparation steps."""
import json
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

# Kaggle's field names; the test file carries only what is known when a request is posted.
TEST_FIELDS = [
    "giver_username_if_known", "request_id", "request_text_edit_aware", "request_title",
    "requester_account_age_in_days_at_request", "requester_days_since_first_post_on_raop_at_request",
    "requester_number_of_comments_at_request", "requester_number_of_comments_in_raop_at_request",
    "requester_number_of_posts_at_request", "requester_number_of_posts_on_raop_at_request",
    "requester_number_of_subreddits_at_request", "requester_subreddits_at_request",
    "requester_upvotes_minus_downvotes_at_request", "requester_upvotes_plus_downvotes_at_request",
    "requester_username", "unix_timestamp_of_request", "unix_timestamp_of_request_utc",
]
TRAIN_ONLY = [
    "number_of_downvotes_of_request_at_retrieval", "number_of_upvotes_of_request_at_retrieval",
    "post_was_edited", "request_number_of_comments_at_retrieval", "request_text",
    "requester_account_age_in_days_at_retrieval", "requester_days_since_first_post_on_raop_at_retrieval",
    "requester_number_of_comments_at_retrieval", "requester_number_of_comments_in_raop_at_retrieval",
    "requester_number_of_posts_at_retrieval", "requester_number_of_posts_on_raop_at_retrieval",
    "requester_received_pizza", "requester_upvotes_minus_downvotes_at_retrieval",
    "requester_upvotes_plus_downvotes_at_retrieval", "requester_user_flair",
]
WORDS = ["pizza", "broke", "student", "hungry", "&amp;", "kids", "\"please\"", "paycheck,", "Friday.",
         "caf\u00e9", "\u2019til", "\U0001F355", "\n\n", "EDIT:", "\\o/", "r/food", "\t", "na\u00efve", "\r\n"]
SUBREDDITS = ["AskReddit", "pics", "funny", "Random_Acts_Of_Pizza", "gaming", "todayilearned", "WTF", "f7u12"]


def text(rs, lo, hi):
    return " ".join(rs.choice(WORDS, size=rs.randint(lo, hi)))


def base36(v):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while v:
        v, r = divmod(v, 36)
        out = digits[r] + out
    return out or "0"


def record(rs, i, labelled):
    t = float(rs.randint(1291852800, 1380499200))
    age = float(rs.choice([0.0, round(rs.random_sample() * 2000, 10), 2.31481481e-05]))
    raop_days = 0.0 if rs.random_sample() < 0.7 else float(rs.random_sample() * 900)
    body = text(rs, 0, 24)
    r = {
        "giver_username_if_known": "N/A" if rs.random_sample() < 0.9 else "giver_%d" % i,
        "request_id": "t3_" + base36(int(rs.randint(36**4, 36**5))),
        "request_text_edit_aware": body,
        "request_title": "[Request] " + text(rs, 1, 8),
        "requester_account_age_in_days_at_request": age,
        "requester_days_since_first_post_on_raop_at_request": raop_days,
        "requester_number_of_comments_at_request": int(rs.randint(0, 900)),
        "requester_number_of_comments_in_raop_at_request": int(rs.randint(0, 5)),
        "requester_number_of_posts_at_request": int(rs.randint(0, 300)),
        "requester_number_of_posts_on_raop_at_request": int(rs.randint(0, 3)),
        "requester_number_of_subreddits_at_request": 0,
        "requester_subreddits_at_request": [],
        "requester_upvotes_minus_downvotes_at_request": int(rs.randint(-50, 5000)),
        "requester_upvotes_plus_downvotes_at_request": int(rs.randint(0, 9000)),
        "requester_username": "user_%d" % i,
        "unix_timestamp_of_request": t,
        "unix_timestamp_of_request_utc": t - 3600.0 * rs.randint(0, 9),
    }
    subs = list(rs.choice(SUBREDDITS, size=rs.randint(0, 6), replace=False))
    r["requester_subreddits_at_request"] = subs
    r["requester_number_of_subreddits_at_request"] = len(subs)
    if not labelled:
        return r
    got = bool(rs.random_sample() < 0.25)
    edited = rs.random_sample()
    r.update({
        "number_of_downvotes_of_request_at_retrieval": int(rs.randint(0, 10)),
        "number_of_upvotes_of_request_at_retrieval": int(rs.randint(0, 30)),
        # Kaggle's quirk: an edited post sometimes carries the edit's timestamp instead of true.
        "post_was_edited": False if edited < 0.8 else (True if edited < 0.9 else t + 5400.0),
        "request_number_of_comments_at_retrieval": int(rs.randint(0, 40)),
        "request_text": body + (" EDIT: thanks!" if got else ""),
        "requester_account_age_in_days_at_retrieval": age + 500.5,
        "requester_days_since_first_post_on_raop_at_retrieval": raop_days + 500.5,
        "requester_number_of_comments_at_retrieval": int(rs.randint(0, 2000)),
        "requester_number_of_comments_in_raop_at_retrieval": int(rs.randint(0, 9)),
        "requester_number_of_posts_at_retrieval": int(rs.randint(0, 600)),
        "requester_number_of_posts_on_raop_at_retrieval": int(rs.randint(0, 5)),
        "requester_received_pizza": got,
        "requester_upvotes_minus_downvotes_at_retrieval": int(rs.randint(-50, 9000)),
        "requester_upvotes_plus_downvotes_at_retrieval": int(rs.randint(0, 20000)),
        "requester_user_flair": None if not got else ("shroom" if rs.random_sample() < 0.9 else "PIF"),
    })
    return {k: r[k] for k in sorted(r)}


def prepare(raw, public, private):
    with open(os.path.join(raw, "train.json"), encoding="utf-8") as f:
        old_train = json.load(f)
    with open(os.path.join(raw, "test.json"), encoding="utf-8") as f:
        old_test = json.load(f)
    ratio = len(old_test) / (len(old_train) + len(old_test))
    test_fields = list(old_test[0].keys())
    new_train, new_test = train_test_split(old_train, test_size=ratio, random_state=0)
    unlabelled = [{k: s[k] for k in test_fields} for s in new_test]
    with open(os.path.join(public, "train.json"), "w") as f:
        json.dump(new_train, f, indent=4)
    with open(os.path.join(public, "test.json"), "w") as f:
        json.dump(unlabelled, f, indent=4)
    shutil.make_archive(os.path.join(public, "train"), "zip", public, "train.json")
    shutil.make_archive(os.path.join(public, "test"), "zip", public, "test.json")
    answers = pd.DataFrame([{"request_id": s["request_id"], "requester_received_pizza": int(s["requester_received_pizza"])} for s in new_test])
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    sample = answers.copy()
    sample["requester_received_pizza"] = 0
    sample.to_csv(os.path.join(public, "sampleSubmission.csv"), index=False)


def make_raw(raw):
    rs = np.random.RandomState(53)
    train = [record(rs, i, True) for i in range(180)]
    # A few records list their keys in another order; json.dump must keep each record's own order.
    for k in (3, 17, 101):
        keys = list(train[k])
        train[k] = {key: train[k][key] for key in reversed(keys)}
    test = [record(rs, 1000 + i, False) for i in range(64)]
    # The unlabelled output follows the key order of Kaggle's first test record.
    first = list(test[0])
    test[0] = {key: test[0][key] for key in first[5:] + first[:5]}
    # Raw UTF-8 in one file, \u escapes in the other: both decode to the same strings.
    with open(os.path.join(raw, "train.json"), "w", encoding="utf-8") as f:
        json.dump(train, f, indent=4, ensure_ascii=False)
    with open(os.path.join(raw, "test.json"), "w", encoding="utf-8") as f:
        json.dump(test, f)
    pd.DataFrame({"request_id": [r["request_id"] for r in test], "requester_received_pizza": 0}).to_csv(
        os.path.join(raw, "sampleSubmission.csv"), index=False)
