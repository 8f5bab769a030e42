"""facebook-recruiting-iii-keyword-extraction: synthetic raw files and upstream's preparation steps."""
import csv
import io
import os
import zipfile

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members
from _freetext import sprinkle_na, text

TAGS = ["php", "c#", "java", "javascript", "python", "c++", ".net", "asp.net", "jquery", "html", "css",
        "sql-server", "image-processing", "file-upload", "mime-types", "iphone", "objective-c", "r", "node.js"]
CODE = ["<pre><code>", "</code></pre>", "if (a < b) { x = \"y\"; }", "print('hi, there')", "&lt;div&gt;", "\t$i++;"]


def body(rs):
    """Stack Overflow HTML: paragraphs and code blocks, every line ending in a newline."""
    parts = []
    for _ in range(rs.randint(1, 4)):
        parts.append("<p>" + text(rs, 4, 25, 0.05) + "</p>\n")
        if rs.random_sample() < 0.5:
            parts.append("\n".join(CODE[k] for k in rs.randint(0, len(CODE), size=rs.randint(1, 5))) + "\n")
    return "\n".join(parts)


def facebook_raw(n=300, seed=31):
    rs = np.random.RandomState(seed)
    titles = sprinkle_na(rs, [text(rs, 3, 12, 0.0) + "?" for _ in range(n)], 0.03)
    tags = [" ".join(TAGS[k] for k in rs.choice(len(TAGS), size=rs.randint(1, 6), replace=False)) for _ in range(n)]
    tags[17] = ""
    return {
        "Id": [str(i) for i in range(1, n + 1)],
        "Title": titles,
        "Body": [body(rs) for _ in range(n)],
        "Tags": tags,
    }


def prepare(raw, public, private):
    with zipfile.ZipFile(os.path.join(raw, "Train.zip")) as z:
        z.extractall(raw)
    old = pd.read_csv(os.path.join(raw, "Train.csv"), dtype={"Id": str, "Tags": str}, float_precision="round_trip")
    train, test = train_test_split(old, test_size=0.1, random_state=0)
    test_public = test.drop(columns=["Tags"])
    sample = test_public.copy()
    sample["Tags"] = "javascript c# python php java"
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    test_public.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    test.to_csv(os.path.join(private, "test.csv"), index=False)


def make_raw(raw):
    # Kaggle's Train.csv quotes every field (ids included) and ends records with CRLF.
    cols = facebook_raw()
    buf = io.StringIO()
    w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    w.writerow(list(cols))
    w.writerows(zip(*cols.values()))
    write_zip_members(os.path.join(raw, "Train.zip"), {"Train.csv": buf.getvalue().encode()})
