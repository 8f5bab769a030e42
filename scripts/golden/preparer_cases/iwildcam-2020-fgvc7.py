"""iwildcam-2020-fgvc7: synthetic raw files and upstream's preparation steps."""
import json
import os
import shutil

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

NAMES = ["empty", "tayassu pecari", "dasyprocta punctata", "cuniculus paca", "puma concolor",
         "leopardus pardalis", "meleagris ocellata", "crax rubra", "ñandú \"rhea\"", "tapirus bairdii",
         "homo sapiens", "mazama temama, red", "didelphis marsupialis", "unknown bird", "💥 start"]


def uuid(rs):
    h = "".join(rs.choice(list("0123456789abcdef"), size=32))
    return "%s-%s-11ea-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:28])


def categories(rs, with_gaps):
    out = []
    for k, name in enumerate(NAMES):
        cat = {"count": int(rs.randint(1, 9000)), "id": int(k * 47 % 676), "name": name}
        if with_gaps and k % 4 == 3:
            # A category never seen in training: pandas fills the gap with NaN, so the
            # other counts come back as floats.
            del cat["count"]
        out.append(cat)
    return out


def images(rs, n, locations):
    loc_p = rs.exponential(1.0, size=len(locations))
    loc_p /= loc_p.sum()
    out = []
    for i in range(n):
        img_id = uuid(rs)
        frames = int(rs.randint(1, 4))
        img = {
            "seq_num_frames": frames,
            "location": int(rs.choice(locations, p=loc_p)),
            "datetime": "2013-%02d-%02d %02d:%02d:%02d.000" % (rs.randint(1, 13), rs.randint(1, 29), rs.randint(0, 24), rs.randint(0, 60), rs.randint(0, 60)),
            "id": img_id,
            "frame_num": int(rs.randint(1, frames + 1)),
            "seq_id": uuid(rs),
            "width": int(rs.choice([1920, 2048])),
            "height": int(rs.choice([1080, 1536])),
            "file_name": img_id + ".jpg",
        }
        if i % 97 == 5:
            # Key order is taken from the first record that has each key.
            img = {k: img[k] for k in reversed(list(img))}
        if i % 61 == 7:
            img["datetime"] = None
        out.append(img)
    return out


def make_raw(raw):
    rs = np.random.RandomState(2020)
    locations = sorted(rs.choice(np.arange(0, 600), size=40, replace=False).tolist())
    train_images = images(rs, 420, locations)
    annotations = []
    for j, img in enumerate(train_images):
        for _ in range(2 if j % 23 == 4 else 1):
            ann = {"count": int(rs.randint(1, 5)), "image_id": img["id"], "id": uuid(rs), "category_id": int(rs.choice([c * 47 % 676 for c in range(len(NAMES))]))}
            annotations.append(ann)
    train = {
        "annotations": annotations,
        "images": train_images,
        "categories": categories(rs, False),
        "info": {"year": 2020, "version": "1.0", "description": "Camera trap data: \"WCS\" — train", "contributor": "Wildlife Conservation Society",
                 "date_created": "2020-02-11", "scale": 1.0},
    }
    test = {
        "images": images(rs, 60, [7000, 7001, 7002]),
        "categories": categories(rs, True),
        "info": {"year": 2020, "version": "1.0", "description": "test", "contributor": "WCS", "date_created": "2020-02-11"},
    }
    with open(os.path.join(raw, "iwildcam2020_train_annotations.json"), "w") as f:
        json.dump(train, f, indent=1)
    with open(os.path.join(raw, "iwildcam2020_test_information.json"), "w") as f:
        json.dump(test, f, ensure_ascii=False)
    detections = {"images": [{"id": img["id"], "max_detection_conf": round(float(rs.random_sample()), 3),
                              "detections": [{"bbox": [0.1, 0.2, 0.3, 0.25], "category": "1", "conf": 0.9}]} for img in train_images[:20]],
                  "detection_categories": {"1": "animal", "2": "person"}, "info": {"detector": "megadetector_v3"}}
    with open(os.path.join(raw, "iwildcam2020_megadetector_results.json"), "w") as f:
        json.dump(detections, f)
    os.makedirs(os.path.join(raw, "train"))
    for k, img in enumerate(train_images):
        with open(os.path.join(raw, "train", img["id"] + ".jpg"), "wb") as f:
            f.write(b"\xff\xd8\xff fake camera trap frame %d" % k)


def prepare(raw, public, private):
    with open(os.path.join(raw, "iwildcam2020_train_annotations.json")) as f:
        train_json = json.load(f)
    with open(os.path.join(raw, "iwildcam2020_test_information.json")) as f:
        test_json = json.load(f)
    annotations = pd.DataFrame(train_json["annotations"])
    imgs = pd.DataFrame(train_json["images"])
    train_cats = pd.DataFrame(train_json["categories"])
    test_cats = pd.DataFrame(test_json["categories"])

    share = 0.22
    locs_train, locs_test = train_test_split(imgs["location"].unique(), test_size=share, random_state=0)

    def sides():
        return imgs[imgs["location"].isin(locs_train)], imgs[imgs["location"].isin(locs_test)]

    train_imgs, test_imgs = sides()
    # Whole locations move over until the (oddly measured) test share crosses 22%, then back.
    while len(test_imgs) / (len(imgs) + len(test_imgs)) < share:
        locs_test = np.append(locs_test, locs_train[-1])
        locs_train = locs_train[:-1]
        train_imgs, test_imgs = sides()
    while len(test_imgs) / (len(imgs) + len(test_imgs)) > share:
        locs_train = np.append(locs_train, locs_test[-1])
        locs_test = locs_test[:-1]
        train_imgs, test_imgs = sides()

    train_ids = train_imgs["id"].unique()
    test_ids = test_imgs["id"].unique()
    train_ann = annotations[annotations["image_id"].isin(train_ids)]
    test_ann = annotations[annotations["image_id"].isin(test_ids)]

    answers = test_ann[["image_id", "category_id"]].rename(columns={"image_id": "Id", "category_id": "Category"})
    sample = answers.copy()
    np.random.seed(0)
    sample["Category"] = np.random.randint(0, 676, size=len(sample))

    new_train = {
        "annotations": train_ann.to_dict(orient="records"),
        "images": train_imgs.to_dict(orient="records"),
        "categories": train_cats.to_dict(orient="records"),
        "info": train_json["info"],
    }
    new_test = {
        "images": test_imgs.to_dict(orient="records"),
        "categories": test_cats.to_dict(orient="records"),
        "info": test_json["info"],
    }
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    with open(os.path.join(public, "iwildcam2020_train_annotations.json"), "w") as f:
        json.dump(new_train, f)
    with open(os.path.join(public, "iwildcam2020_test_information.json"), "w") as f:
        json.dump(new_test, f)
    shutil.copyfile(os.path.join(raw, "iwildcam2020_megadetector_results.json"), os.path.join(public, "iwildcam2020_megadetector_results.json"))
    for folder, ids in (("train", train_ids), ("test", test_ids)):
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for image_id in ids:
            shutil.copyfile(os.path.join(raw, "train", "%s.jpg" % image_id), os.path.join(public, folder, "%s.jpg" % image_id))
