"""herbarium-2022-fgvc9: synthetic raw files and upstream's preparation steps."""
import json
import os
import shutil

import pandas as pd

from _herbarium import FAMILIES, GENERA, EPITHETS, category_labels, fake_jpg, group_by_category, rng, shuffled, split_groups, sub

# Every category needs two samples at least: this preparer splits each with train_test_split.
SIZES_2022 = [2, 3, 4, 5, 6, 7, 9, 10, 12, 16, 23, 2, 3, 8, 5, 2, 11, 4, 31, 2]
# Distances as Kaggle stores them (floats), with values whose Python repr is easy to get wrong.
DISTANCES = [0.1, 1.0, 0.30000000000000004, 1e-05, 2.5e-07, 123456789.0, 1e16, 0.5426470588235294, 0.0, 2.0 / 3.0]
INSTITUTIONS = ["A", "BRIT", "CAS", "F", "MO", "NY", "P\u00e9", "US"]


def metadata(rs):
    cats, labels = category_labels(rs, 24, 15501, SIZES_2022)
    genus_of = {cid: 1 + int(rs.randint(len(GENERA))) for cid in cats}
    old_ids = {}
    annotations, images = [], []
    for label in labels:
        # Kaggle numbers images within their category, as this preparer renumbers them again.
        old_ids[label] = old_ids.get(label, 0) + 1
        iid = "%05d__%03d" % (label, old_ids[label])
        annotations.append({"genus_id": genus_of[label], "institution_id": int(rs.randint(len(INSTITUTIONS))),
                            "category_id": label, "image_id": iid})
        images.append({"image_id": iid, "file_name": "%s/%s.jpg" % (sub(label), iid), "license": int(rs.randint(2))})
    categories = []
    for cid in cats:
        genus = GENERA[genus_of[cid] - 1]
        epithet = EPITHETS[rs.randint(len(EPITHETS))]
        categories.append({"category_id": cid, "scientific_name": "%s %s" % (genus, epithet), "authors": "(Douglas ex Loudon) J.Forbes",
                           "family": FAMILIES[rs.randint(len(FAMILIES))], "genus": genus, "species": epithet})
    distances = [{"genus_id_x": x, "genus_id_y": y, "distance": DISTANCES[(x * 7 + y) % len(DISTANCES)]}
                 for x in range(1, 6) for y in range(1, 6) if x != y]
    return {
        "annotations": annotations,
        "images": images,
        "categories": categories,
        "genera": [{"genus_id": i + 1, "genus": g} for i, g in enumerate(GENERA)],
        "distances": distances,
        "licenses": [{"id": 0, "name": "Public Domain Dedication", "url": "https://creativecommons.org/publicdomain/zero/1.0/"},
                     {"id": 1, "name": "Attribution 4.0 International (CC BY 4.0)", "url": "https://creativecommons.org/licenses/by/4.0/"}],
        "institutions": [{"institution_id": i, "collectionCode": c} for i, c in enumerate(INSTITUTIONS)],
    }


def make_raw(raw):
    rs = rng(2022)
    meta = metadata(rs)
    with open(os.path.join(raw, "train_metadata.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f)
    for image in meta["images"]:
        fake_jpg(os.path.join(raw, "train_images", image["file_name"]), image["image_id"])
    # Kaggle's unlabelled test images, their metadata and the sample submission: shipped, never read.
    with open(os.path.join(raw, "test_metadata.json"), "w") as f:
        json.dump([{"file_name": "000/test-000000.jpg", "image_id": "0", "license": 0}], f)
    fake_jpg(os.path.join(raw, "test_images", "000", "test-000000.jpg"), "kaggle test")
    pd.DataFrame({"Id": [0], "Predicted": [42]}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    with open(os.path.join(raw, "train_metadata.json"), encoding="utf-8") as f:
        old = json.load(f)
    groups = group_by_category(old["annotations"], old["images"], "image_id")
    train, test = split_groups(groups, 0.2, tail_rule=False)

    out_train = os.path.join(public, "train_images")
    new_train = dict(old, annotations=[], images=[])
    for cid, items in train.items():
        os.makedirs(os.path.join(out_train, sub(cid)), exist_ok=True)
        for idx, item in enumerate(items):
            new_id = "%05d__%03d" % (cid, idx + 1)
            name = "%s/%s.jpg" % (sub(cid), new_id)
            new_train["annotations"].append(dict(item["annotation"], image_id=new_id))
            new_train["images"].append(dict(item["image"], image_id=new_id, file_name=name))
            shutil.copyfile(os.path.join(raw, "train_images", item["image"]["file_name"]), os.path.join(out_train, name))
    with open(os.path.join(public, "train_metadata.json"), "w") as f:
        json.dump(new_train, f, indent=4, sort_keys=True)

    test_images, test_annotations = [], []
    for idx, item in enumerate(shuffled(test)):
        name = "%03d/test-%06d.jpg" % (idx // 1000, idx)
        test_annotations.append(dict(item["annotation"], image_id=str(idx)))
        test_images.append(dict(item["image"], image_id=str(idx), file_name=name))
        dst = os.path.join(public, "test_images", name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(raw, "train_images", item["image"]["file_name"]), dst)
    with open(os.path.join(public, "test_metadata.json"), "w") as f:
        json.dump(test_images, f, indent=4, sort_keys=True)

    answers = pd.DataFrame([{"Id": im["image_id"], "Predicted": an["category_id"]} for im, an in zip(test_images, test_annotations)])
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    sample = pd.DataFrame([{"Id": im["image_id"], "Predicted": 42} for im in test_images])
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
