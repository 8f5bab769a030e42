"""hms-harmful-brain-activity-classification: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
CONSENSUS = ["Seizure", "LPD", "GPD", "LRDA", "GRDA", "Other"]


def fake_parquet(kind, ident):
    # Only copied, never read: any bytes framed like a Parquet file will do.
    return b"PAR1 fake %s %d PAR1" % (kind.encode(), ident)


def make_raw(raw):
    rs = np.random.RandomState(2024)
    rows = []
    n_spec = 45
    spec_ids = rs.randint(350000, 2147000000, size=n_spec)
    for spec in spec_ids:
        patient = int(rs.randint(56, 65500))
        spec_offset = 0.0
        for sub_spec, eeg in enumerate(rs.randint(568657, 4294000000, size=rs.randint(1, 4))):
            eeg_offset = 0.0
            for sub in range(rs.randint(1, 4)):
                raters = int(rs.choice([1, 2, 3, 3, 6, 14, 17]))
                votes = rs.multinomial(raters, rs.dirichlet(np.ones(6) * 0.5))
                rows.append({
                    "eeg_id": int(eeg),
                    "eeg_sub_id": sub,
                    "eeg_label_offset_seconds": eeg_offset,
                    "spectrogram_id": int(spec),
                    "spectrogram_sub_id": sub_spec + sub,
                    "spectrogram_label_offset_seconds": spec_offset,
                    "label_id": int(rs.randint(338, 4294958358)),
                    "patient_id": patient,
                    "expert_consensus": CONSENSUS[int(np.argmax(votes))],
                    **{v: int(c) for v, c in zip(VOTES, votes)},
                })
                step = float(rs.choice([2.0, 4.0, 6.0, 10.0]))
                eeg_offset += step
                spec_offset += step
    df = pd.DataFrame(rows)
    # Kaggle lists the labels grouped by EEG, so spectrograms show up out of order.
    df = df.iloc[np.argsort(df["eeg_id"].values, kind="stable")]
    df.to_csv(os.path.join(raw, "train.csv"), index=False)
    for kind, ids in (("train_eegs", df["eeg_id"].unique()), ("train_spectrograms", df["spectrogram_id"].unique())):
        os.makedirs(os.path.join(raw, kind))
        for ident in ids:
            with open(os.path.join(raw, kind, "%d.parquet" % ident), "wb") as f:
                f.write(fake_parquet(kind, ident))
    os.makedirs(os.path.join(raw, "example_figures"))
    for name in ("Seizure_1.png", "LPD_2.png", "Other_3.png"):
        with open(os.path.join(raw, "example_figures", name), "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n fake figure " + name.encode())
    pd.DataFrame({"eeg_id": [3911565283], **{v: [1 / 6] for v in VOTES}}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train_specs, test_specs = train_test_split(old["spectrogram_id"].unique(), test_size=0.1, random_state=0)
    new_train = old[old["spectrogram_id"].isin(train_specs)]
    new_test = old[old["spectrogram_id"].isin(test_specs)]
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    new_test[["spectrogram_id", "eeg_id", "patient_id"]].to_csv(os.path.join(public, "test.csv"), index=False)
    gold = new_test[["eeg_id"] + VOTES].copy()
    gold[VOTES] = gold[VOTES].div(gold[VOTES].sum(axis=1), axis=0)
    gold.to_csv(os.path.join(private, "gold_submission.csv"), index=False)
    sample = gold.copy()
    sample[VOTES] = 1 / len(VOTES)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    shutil.copytree(os.path.join(raw, "example_figures"), os.path.join(public, "example_figures"))
    for frame, side in ((new_train, "train"), (new_test, "test")):
        for column, kind in (("eeg_id", "eegs"), ("spectrogram_id", "spectrograms")):
            os.makedirs(os.path.join(public, "%s_%s" % (side, kind)))
            for ident in frame[column].unique():
                shutil.copy(os.path.join(raw, "train_" + kind, "%d.parquet" % ident), os.path.join(public, "%s_%s" % (side, kind), "%d.parquet" % ident))
