"""google-quest-challenge: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _freetext import sprinkle_na, text

CLASSES = [
    "question_asker_intent_understanding", "question_body_critical", "question_conversational",
    "question_expect_short_answer", "question_fact_seeking", "question_has_commonly_accepted_answer",
    "question_interestingness_others", "question_interestingness_self", "question_multi_intent",
    "question_not_really_a_question", "question_opinion_seeking", "question_type_choice",
    "question_type_compare", "question_type_consequence", "question_type_definition",
    "question_type_entity", "question_type_instructions", "question_type_procedure",
    "question_type_reason_explanation", "question_type_spelling", "question_well_written",
    "answer_helpful", "answer_level_of_information", "answer_plausible", "answer_relevance",
    "answer_satisfaction", "answer_type_instructions", "answer_type_procedure",
    "answer_type_reason_explanation", "answer_well_written",
]
HOSTS = [("stackoverflow.com", "STACKOVERFLOW"), ("english.stackexchange.com", "CULTURE"),
         ("physics.stackexchange.com", "SCIENCE"), ("superuser.com", "TECHNOLOGY"), ("cooking.stackexchange.com", "LIFE_ARTS")]
NAMES = ["Dylan", "user1234", "12345", "Jörg W Mittag", "李明", "O'Brien", "smith, j.", "ಠ_ಠ", "null"]


def rating(rs):
    """Kaggle's targets are means of rater votes, written with 15 significant digits ("1", "0.333333333333333")."""
    d = [1, 2, 3, 6, 9, 5, 15][rs.randint(0, 7)]
    return "%.15g" % (rs.randint(0, d + 1) / d)


def quest_raw(n=300, seed=41):
    rs = np.random.RandomState(seed)
    qa_ids = np.sort(rs.choice(9000, size=n, replace=False))
    df = {"qa_id": qa_ids}
    hosts = [HOSTS[k] for k in rs.randint(0, len(HOSTS), size=n)]
    df["question_title"] = [text(rs, 3, 12, 0.0) + "?" for _ in range(n)]
    df["question_body"] = [text(rs, 5, 30) for _ in range(n)]
    df["question_user_name"] = sprinkle_na(rs, [NAMES[k] for k in rs.randint(0, len(NAMES), size=n)], 0.02)
    df["question_user_page"] = ["https://%s/users/%d" % (h, u) for (h, _), u in zip(hosts, rs.randint(1, 99999, size=n))]
    df["answer"] = [text(rs, 5, 40) for _ in range(n)]
    df["answer_user_name"] = [NAMES[k] for k in rs.randint(0, len(NAMES), size=n)]
    df["answer_user_page"] = ["https://%s/users/%d" % (h, u) for (h, _), u in zip(hosts, rs.randint(1, 99999, size=n))]
    df["url"] = ["http://%s/questions/%d" % (h, q) for (h, _), q in zip(hosts, rs.randint(1, 999999, size=n))]
    df["category"] = [c for _, c in hosts]
    df["host"] = [h for h, _ in hosts]
    for c in CLASSES:
        df[c] = [rating(rs) for _ in range(n)]
    # Almost always 0, so the 10% test split can miss every non-zero row.
    spelling = ["0"] * n
    for i in (5, 77, 123):
        spelling[i] = "0.333333333333333"
    df["question_type_spelling"] = spelling
    return pd.DataFrame(df)


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, test = train_test_split(old, test_size=0.1, random_state=0)
    if test["question_type_spelling"].nunique() == 1:
        # Trade the first train row with a non-zero spelling score for the first test row.
        donor = train[train["question_type_spelling"] != 0].index[0]
        first_test = test.iloc[0].copy()
        test.iloc[0] = train.loc[donor].copy()
        train.loc[donor] = first_test
    test_public = test.drop(CLASSES, axis=1, inplace=False)
    answers = test[["qa_id"] + CLASSES]
    sample = answers.copy()
    sample[CLASSES] = np.tile(np.linspace(0, 1, len(sample))[:, None], (1, len(CLASSES)))
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    test_public.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    quest_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
