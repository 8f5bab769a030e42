"""dog-breed-identification: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

BREEDS = [
    'affenpinscher', 'afghan_hound', 'african_hunting_dog', 'airedale',
    'american_staffordshire_terrier', 'appenzeller', 'australian_terrier', 'basenji', 'basset',
    'beagle', 'bedlington_terrier', 'bernese_mountain_dog', 'black-and-tan_coonhound',
    'blenheim_spaniel', 'bloodhound', 'bluetick', 'border_collie', 'border_terrier', 'borzoi',
    'boston_bull', 'bouvier_des_flandres', 'boxer', 'brabancon_griffon', 'briard',
    'brittany_spaniel', 'bull_mastiff', 'cairn', 'cardigan', 'chesapeake_bay_retriever',
    'chihuahua', 'chow', 'clumber', 'cocker_spaniel', 'collie', 'curly-coated_retriever',
    'dandie_dinmont', 'dhole', 'dingo', 'doberman', 'english_foxhound', 'english_setter',
    'english_springer', 'entlebucher', 'eskimo_dog', 'flat-coated_retriever', 'french_bulldog',
    'german_shepherd', 'german_short-haired_pointer', 'giant_schnauzer', 'golden_retriever',
    'gordon_setter', 'great_dane', 'great_pyrenees', 'greater_swiss_mountain_dog',
    'groenendael', 'ibizan_hound', 'irish_setter', 'irish_terrier', 'irish_water_spaniel',
    'irish_wolfhound', 'italian_greyhound', 'japanese_spaniel', 'keeshond', 'kelpie',
    'kerry_blue_terrier', 'komondor', 'kuvasz', 'labrador_retriever', 'lakeland_terrier',
    'leonberg', 'lhasa', 'malamute', 'malinois', 'maltese_dog', 'mexican_hairless',
    'miniature_pinscher', 'miniature_poodle', 'miniature_schnauzer', 'newfoundland',
    'norfolk_terrier', 'norwegian_elkhound', 'norwich_terrier', 'old_english_sheepdog',
    'otterhound', 'papillon', 'pekinese', 'pembroke', 'pomeranian', 'pug', 'redbone',
    'rhodesian_ridgeback', 'rottweiler', 'saint_bernard', 'saluki', 'samoyed', 'schipperke',
    'scotch_terrier', 'scottish_deerhound', 'sealyham_terrier', 'shetland_sheepdog', 'shih-tzu',
    'siberian_husky', 'silky_terrier', 'soft-coated_wheaten_terrier',
    'staffordshire_bullterrier', 'standard_poodle', 'standard_schnauzer', 'sussex_spaniel',
    'tibetan_mastiff', 'tibetan_terrier', 'toy_poodle', 'toy_terrier', 'vizsla', 'walker_hound',
    'weimaraner', 'welsh_springer_spaniel', 'west_highland_white_terrier', 'whippet',
    'wire-haired_fox_terrier', 'yorkshire_terrier',
]


def _log_loss_or_none(g, a, s):
    """Upstream's steps: every breed column and `id` present, row count, rows sum to one
    (np.isclose, atol 1e-6, NaN skipped by pandas' sum), values in [0, 1] (NaN fails), ids equal
    after sorting, then log loss without renormalisation (scikit-learn >= 1.5)."""
    if not all(b in s.columns for b in BREEDS) or "id" not in s.columns or len(s) != len(a):
        return None
    p = s[BREEDS]
    if not np.all(np.isclose(p.sum(axis=1), 1, atol=1e-6)):
        return None
    if not ((p >= 0) & (p <= 1)).all().all():
        return None
    s = s.sort_values("id")
    a = a.sort_values("id")
    if s["id"].tolist() != a["id"].tolist():
        return None
    return g.log_loss_np(a[BREEDS].to_numpy(dtype=float), s[BREEDS].to_numpy(dtype=float))


# dog-breed-identification: log loss over 120 breed columns, one-hot answers, rows matched by `id`.
def generate(g):
    n = 10
    k = len(BREEDS)
    ids = g.hex_ids(n, 32)
    labels = g.rng.randint(0, k, n)
    labels[:3] = [0, k - 1, 57]
    onehot = np.eye(k, dtype=int)[labels]
    g.write(pd.DataFrame({"id": ids, **{b: onehot[:, j] for j, b in enumerate(BREEDS)}}), "answers.csv")
    g.leaderboard(sorted(np.round(np.concatenate([g.rng.uniform(0.0005, 0.3, 60), g.rng.uniform(0.3, 4.8, 200)]), 5)))

    # Probabilities in thousandths keep the files small; each row sums to exactly 1000/1000.
    counts = g.rng.multinomial(400, np.full(k, 1 / k), n)
    counts[np.arange(n), labels] += 600
    counts[4, labels[4]] -= 600
    counts[4, (labels[4] + 1) % k] += 600  # confidently wrong, true breed's probability 0 after one more step
    counts[4, (labels[4] + 1) % k] += counts[4, labels[4]]
    counts[4, labels[4]] = 0
    soft = counts / 1000

    def sub(pred, i=ids, cols=BREEDS):
        return pd.DataFrame({"id": i, **{b: pred[:, BREEDS.index(b)] for b in cols}})

    subs = {
        "sample_uniform": sub(np.full((n, k), 1 / k)),
        "onehot_perfect": sub(onehot),
        "soft": sub(soft),
        "soft_shuffled": sub(soft).sample(frac=1, random_state=13),
        "columns_reordered": sub(soft, cols=BREEDS[::-1]),
        "extra_column": sub(soft).assign(breed="x"),
    }
    slight = soft.copy()
    slight[2, 0] += 4e-6  # within upstream's tolerance: scored as is, not renormalised
    subs["sum_within_tolerance"] = sub(slight)
    off = soft.copy()
    off[6, 3] += 5e-5
    subs["sum_off"] = sub(off)
    neg = soft.copy()
    j = (labels[7] + 5) % k
    neg[7, j] = -0.001
    neg[7, labels[7]] += 0.001 + soft[7, j]
    subs["negative_value"] = sub(neg)
    nan = soft.copy()
    zero = int(np.flatnonzero(soft[8] == 0)[0]) if (soft[8] == 0).any() else None
    if zero is None:
        nan[8, labels[8]] += nan[8, 0]
        zero = 0
    nan[8, zero] = np.nan  # the row still sums to one, skipping NaN
    subs["nan_value"] = sub(nan)
    subs["missing_breed_column"] = sub(soft, cols=BREEDS[:-1])
    subs["missing_id_column"] = sub(soft).rename(columns={"id": "image_id"})
    subs["missing_row"] = sub(soft[1:], ids[1:])
    subs["extra_row"] = sub(np.vstack([soft, soft[:1]]), ids + g.hex_ids(1, 32))
    subs["duplicate_id"] = sub(soft, ids[:-1] + ids[:1])
    for name, df in subs.items():
        g.write(df, f"{name}.csv")
        g.record(name, _log_loss_or_none(g, g.read("answers.csv"), g.read(f"{name}.csv")))
    for name in ("sample_uniform", "onehot_perfect", "soft", "soft_shuffled", "columns_reordered", "extra_column", "sum_within_tolerance"):
        assert g.expected[name] is not None, name
    assert g.expected["sample_uniform"] == round(np.log(k), 5)
    assert g.expected["soft"] == g.expected["soft_shuffled"] == g.expected["columns_reordered"] == g.expected["extra_column"]
