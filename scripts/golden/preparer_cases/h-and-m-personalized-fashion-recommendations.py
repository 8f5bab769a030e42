"""h-and-m-personalized-fashion-recommendations: synthetic raw files and upstream's preparation steps.

Kaggle's transactions_train.csv is 31M purchases over two years, in date order; this one has a
few hundred over nine weeks. The bytes that matter: article ids are written with a leading zero
("0663713001") and pandas reads them as int64, so the outputs print them without it; prices have
16 decimals; a customer can buy the same article twice on one day; a few rows are out of date
order so that the answers keep file order within a customer, not date order. articles.csv,
customers.csv, the sample submission and images/ are copied unchanged, so their contents only
need the real shape.
"""
import os
import shutil

import numpy as np
import pandas as pd

ARTICLES_HEADER = (
    "article_id,product_code,prod_name,product_type_no,product_type_name,product_group_name,"
    "graphical_appearance_no,graphical_appearance_name,colour_group_code,colour_group_name,"
    "perceived_colour_value_id,perceived_colour_value_name,perceived_colour_master_id,"
    "perceived_colour_master_name,department_no,department_name,index_code,index_name,"
    "index_group_no,index_group_name,section_no,section_name,garment_group_no,garment_group_name,detail_desc"
)
CUSTOMERS_HEADER = "customer_id,FN,Active,club_member_status,fashion_news_frequency,age,postal_code"


def hex_id(rs, n):
    return "".join("%x" % v for v in rs.randint(0, 16, size=n))


def articles(rs, count=40):
    ids = sorted(set("0%09d" % v for v in rs.randint(108775000, 959461000, size=count)))
    lines = [ARTICLES_HEADER]
    descs = ['Jersey top with narrow shoulder straps.', '"Soft, fitted" top in cotton jersey', '', 'Trousers in woven fabric, 5 cm wide.']
    for a in ids:
        desc = descs[int(rs.randint(0, len(descs)))]
        if "," in desc or '"' in desc:
            desc = '"%s"' % desc.replace('"', '""')
        lines.append(
            "%s,%s,Strap top,253,Vest top,Garment Upper body,1010016,Solid,09,Black,4,Dark,5,Black,1676,"
            "Jersey Basic,A,Ladieswear,1,Ladieswear,16,Womens Everyday Basics,1002,Jersey Basic,%s" % (a, a[:7], desc)
        )
    return ids, "\n".join(lines) + "\n"


def customers(rs, count=60):
    ids = [hex_id(rs, 64) for _ in range(count)]
    lines = [CUSTOMERS_HEADER]
    for c in ids:
        fn = "1.0" if rs.random_sample() < 0.4 else ""
        age = "" if rs.random_sample() < 0.05 else "%d.0" % rs.randint(16, 90)
        lines.append("%s,%s,%s,ACTIVE,NONE,%s,%s" % (c, fn, fn, age, hex_id(rs, 64)))
    return ids, "\n".join(lines) + "\n"


def transactions(rs, customer_ids, article_ids, count=700):
    days = pd.date_range("2020-07-20", "2020-09-22", freq="D").strftime("%Y-%m-%d").tolist()
    rows = []
    for _ in range(count):
        day = days[int(rs.randint(0, len(days)))]
        cust = customer_ids[int(rs.randint(0, len(customer_ids)))]
        art = article_ids[int(rs.randint(0, len(article_ids)))]
        price = "%.16f" % (rs.randint(5, 400) / 590.0)
        rows.append([day, cust, art, price, str(rs.choice([1, 2], p=[0.3, 0.7]))])
        if rs.random_sample() < 0.05:
            rows.append(list(rows[-1]))  # the same article bought twice on one day
    rows.sort(key=lambda r: r[0])
    # A few purchases recorded out of date order.
    for _ in range(8):
        i, j = rs.randint(0, len(rows), size=2)
        rows[i], rows[j] = rows[j], rows[i]
    lines = ["t_dat,customer_id,article_id,price,sales_channel_id"] + [",".join(r) for r in rows]
    return "\n".join(lines) + "\n"


def make_raw(raw):
    rs = np.random.RandomState(2022)
    article_ids, articles_text = articles(rs)
    customer_ids, customers_text = customers(rs)
    with open(os.path.join(raw, "articles.csv"), "w", newline="") as f:
        f.write(articles_text)
    with open(os.path.join(raw, "customers.csv"), "w", newline="") as f:
        f.write(customers_text)
    with open(os.path.join(raw, "transactions_train.csv"), "w", newline="") as f:
        f.write(transactions(rs, customer_ids, article_ids))
    with open(os.path.join(raw, "sample_submission.csv"), "w", newline="") as f:
        f.write("customer_id,prediction\n")
        for c in customer_ids:
            f.write("%s,0706016001 0706016002 0372860001 0610776002 0759871002 0464297007\n" % c)
    for a in article_ids[:12]:
        folder = os.path.join(raw, "images", a[:3])
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, a + ".jpg"), "wb") as f:
            f.write(b"\xff\xd8\xff\xe0 fake jpeg " + a.encode())


def prepare(raw, public, private):
    purchases = pd.read_csv(os.path.join(raw, "transactions_train.csv"), float_precision="round_trip")
    when = pd.to_datetime(purchases["t_dat"])
    recent = when >= when.max() - pd.Timedelta(days=7)
    train = purchases[~recent]
    test = purchases[recent]
    answers = test.groupby("customer_id")["article_id"].apply(lambda s: " ".join(s.astype(str))).reset_index()
    answers = answers.rename(columns={"article_id": "prediction"})
    shutil.copyfile(os.path.join(raw, "sample_submission.csv"), os.path.join(public, "sample_submission.csv"))
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    train.to_csv(os.path.join(public, "transactions_train.csv"), index=False)
    for name in ["articles.csv", "customers.csv"]:
        shutil.copyfile(os.path.join(raw, name), os.path.join(public, name))
    shutil.copytree(os.path.join(raw, "images"), os.path.join(public, "images"), dirs_exist_ok=True)
