"""chaii-hindi-and-tamil-question-answering: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _freetext import WORDS, hex_ids, text

HINDI = ["भारत", "की", "राजधानी", "नई", "दिल्ली", "है", "।", "स्वतंत्रता", "1947", "में", "मिली", "\"गांधी\"", "जी,"]
TAMIL = ["தமிழ்நாடு", "இந்தியாவின்", "மாநிலம்", "ஆகும்", ".", "சென்னை", "தலைநகர்", "1956", "'வள்ளுவர்'", "கவிதை,"]


def chaii_raw(n=300, seed=21):
    rs = np.random.RandomState(seed)
    rows = []
    for i, qid in enumerate(hex_ids(rs, n, 9)):
        lang = "hindi" if rs.random_sample() < 0.66 else "tamil"
        vocab = (HINDI if lang == "hindi" else TAMIL) + WORDS[:12]
        context = text(rs, 20, 80, 0.05, vocab)
        # The answer is a span of the context; numbers and leading zeros must survive as text.
        if i % 23 == 4:
            answer = "05"
            context = context + " " + answer
        else:
            toks = context.split(" ")
            a = rs.randint(0, len(toks))
            answer = " ".join(toks[a:a + rs.randint(1, 4)]).strip() or toks[0]
        rows.append({
            "id": qid,
            "context": context,
            "question": text(rs, 3, 12, 0.0, vocab) + " ?",
            "answer_text": answer,
            "answer_start": context.find(answer),
            "language": lang,
        })
    return pd.DataFrame(rows)


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, test = train_test_split(old, test_size=0.1, random_state=0)
    test_public = test.drop(columns=["answer_start", "answer_text"])
    answers = test[["id", "answer_text"]]
    answers.columns = ["id", "PredictionString"]
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    test_public.to_csv(os.path.join(public, "test.csv"), index=False)
    answers.to_csv(os.path.join(private, "test.csv"), index=False)
    sample = answers.copy()
    sample["PredictionString"] = "dummy text"
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    chaii_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
