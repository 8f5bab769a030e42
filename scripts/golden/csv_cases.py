#!/usr/bin/python3
"""Generate test/golden/csv.json: pandas' answers for the CSV reader/writer and Python's float repr.

Run with Debian's interpreter (it has pandas and numpy):  /usr/bin/python3 scripts/golden/csv_cases.py

The oracle is whatever pandas that interpreter has (1.5.3 on Debian 12). mlebench-ts follows
pandas 2.2, so the reader is called with pandas 2.2's default missing-value list (1.5 lacks
"None"); the cases avoid the few places where 1.5 and 2.2 differ otherwise.
"""
import base64
import io
import json
import math
import random
import struct
import sys
from pathlib import Path

import numpy as np
import pandas as pd

# pandas 2.2 STR_NA_VALUES
NA_VALUES = [
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
]

READ_CASES = [
    ("ints", b"id,x\n1,2\n3,4\n"),
    ("floats", b"a,b\n0.1,1e5\n-2.5,1E-3\n"),
    ("int_float_mix", b"a\n1\n1.5\n"),
    ("crlf", b"a,b\r\n1,x\r\n2,y\r\n"),
    ("lone_cr", b"a\r1\r2\r"),
    ("bom", b"\xef\xbb\xbfid,v\n1,2\n"),
    ("bom_not_at_start", b"a\n1\n\xef\xbb\xbf2\n"),
    ("blank_lines", b"\n\na,b\n\n1,2\n\n\n3,4\n\n"),
    ("whitespace_lines", b"a\n1\n \t \n2\n  \n"),
    ("whitespace_field", b"a,b\n  ,x\n"),
    ("no_trailing_newline", b"a,b\n1,2"),
    ("quoted_delims", b'a,b\n"x,y","p\nq"\n"r""s",t\n'),
    ("quoted_crlf_inside", b'a,b\r\n"l1\r\nl2",2\r\n'),
    ("quote_then_text", b'a\n"x"y\n'),
    ("text_then_quote", b'a\nx"y"\n'),
    ("doubled_quote_then_text", b'a\n"x""y"z\n'),
    ("quoted_numbers", b'a,b\n"1","2.5"\n"3","4"\n'),
    ("quoted_empty_is_na", b'a,b\n"",1\n2,""\n'),
    ("empty_row_of_delims", b"a,b\n,\n1,2\n"),
    ("na_tokens_float", b"a\n1.5\nNA\nN/A\n#N/A\n#N/A N/A\n#NA\n-1.#IND\n-1.#QNAN\n-NaN\n-nan\n1.#IND\n1.#QNAN\n<NA>\nNULL\nNaN\nNone\nn/a\nnan\nnull\n\n"),
    ("na_tokens_string", b"a\nx\nNA\nNone\nnull\n\nNaN\n"),
    ("na_like_not_na", b"a\nNAN\nnone\nNa\n n/a\n"),
    ("none_token", b"a,b\nNone,1\n2,None\n"),
    ("ints_with_na", b"a\n1\n\n2\nNA\n"),
    ("ints_with_na_row", b"a,b\n1,2\n,3\n"),
    ("all_missing", b"a,b\n,1\nNA,2\n"),
    ("leading_zeros_int", b"a\n007\n010\n"),
    ("leading_zeros_mixed", b"a\n007\nx\n"),
    ("int_then_string", b"id\n1\n2\nabc\n"),
    ("int53", b"a\n9007199254740992\n-9007199254740992\n"),
    ("int_beyond_53", b"a\n9007199254740993\n1\n"),
    ("int64_max_min", b"a\n9223372036854775807\n-9223372036854775808\n"),
    ("uint64", b"a\n9223372036854775808\n1\n"),
    ("uint64_max", b"a\n18446744073709551615\n0\n"),
    ("beyond_uint64", b"a\n18446744073709551616\n1\n"),
    ("beyond_uint64_na", b"a\n18446744073709551616\nNA\n"),
    ("uint64_with_negative", b"a\n18446744073709551615\n-1\nNA\n"),
    ("uint64_with_na_literal", b"a,b\n9223372036854775808,1\nNA,2\n,3\n"),
    ("below_int64", b"a\n-9223372036854775809\nNA\n"),
    ("big_int_then_float", b"a\n9223372036854775808\n1.5\n"),
    ("huge_int_then_float", b"a\n99999999999999999999\n1.5\n"),
    ("float_then_huge_int", b"a\n1.5\n99999999999999999999\n"),
    ("huge_int_with_fraction", b"a\n99999999999999999999.5\n"),
    ("int64_overflow_with_fraction", b"a\n9999999999999999999.5\n"),
    ("int_with_spaces", b"a\n 1 \n\t2\n+3\n"),
    ("float_with_spaces", b"a\n 1.5\n2.5 \n"),
    ("float_forms", b"a\n1.\n.5\n+.5\n1e5\n1E+05\n-0.0\n1e-400\n-1e400\n"),
    ("float_overflow_is_string", b"a\n1e400\n2\n"),
    ("float_rounds_to_inf", b"a\n1.7976931348623159e308\n"),
    ("float_max", b"a\n1.7976931348623157e308\n"),
    ("bad_exponent", b"a\n1.5\n1e\n"),
    ("lone_dot", b"a\n1.\n.\n"),
    ("signs_only", b"a\n-\n+\n"),
    ("inf_forms", b"a\ninf\n-inf\n+inf\nInfinity\n-Infinity\n+INFINITY\nINF\n"),
    ("inf_with_space", b"a\n INF\n2\n"),
    ("hex_underscore", b"a,b\n0x1f,1_000\n"),
    ("neg_zero_int", b"a\n-0\n1\n"),
    ("neg_zero_int_na", b"a\n-0\nNA\n"),
    ("neg_zero_with_float", b"a\n-0\n1.5\n"),
    ("round_trip_digits", b"a\n0.30000000000000004\n2.2250738585072014e-308\n5e-324\n123456789012345680000\n0.1234567890123456789\n"),
    ("bools", b"a,b\nTrue,false\nFALSE,TRUE\n"),
    ("bools_mixed_case", b"a\ntRuE\nfalse\n"),
    ("bools_with_na", b"a\nTrue\n\nFalse\nNA\n"),
    ("bools_with_blank_line", b"a\nTrue\n\nFalse\n"),
    ("bool_and_int", b"a\nTrue\n1\n"),
    ("bool_and_float", b"a\nTrue\n1.5\n"),
    ("bool_and_string", b"a\nTrue\nx\n"),
    ("bool_with_space", b"a\n True\n"),
    ("dup_names", b"a,a,a\n1,2,3\n"),
    ("dup_names_collide", b"a,a,a.1\n1,2,3\n"),
    ("empty_names", b",a,\n1,2,3\n"),
    ("empty_name_collides", b",Unnamed: 0\n1,2\n"),
    ("quoted_header", b'"x,y","z""w"\n1,2\n'),
    ("header_spaces", b" a , b\n1,2\n"),
    ("short_rows", b"a,b,c\n1,2,3\n4\n5,6\n"),
    ("header_only", b"a,b\n"),
    ("header_only_no_newline", b"a,b"),
    ("single_column", b"x\n1\n2\n"),
    ("implicit_index", b"a,b\n1,2,3\n4,5\n"),
    ("implicit_index_two", b"a,b\n1,2,3,4\n5,6,7,8\n"),
    ("implicit_index_trailing_comma", b"a\n 5,\n"),
    ("cr_blank_line_eats_comma", b"a,b\r\r,1\r"),
    ("utf8_text", "name,v\nJosé,1\n日本,2\n😀,3\n".encode()),
    ("trailing_delimiter", b"a,b\n1,\n2,\n"),
    ("string_keeps_spaces", b"a\n x\ny \n"),
    ("mixed_floats_strings", b"a\n1.50\nfoo\n2\n"),
    ("error_extra_field", b"a,b\n1,2\n3,4,5\n"),
    ("error_extra_after_blank", b"a,b\n1,2\n\n3,4\n5,6,7\n"),
    ("error_extra_after_quoted_newline", b'a,b\n"x\ny",2\n3,4,5\n'),
    ("error_unterminated_quote", b'a\n1\n\n"abc\nx\n'),
    ("error_unterminated_triple_quote", b'a\n"""\n'),
    ("error_empty", b""),
    ("error_whitespace_only", b"  \n\n \t\n"),
    ("error_invalid_utf8", b"a\n\xff\n"),
]


# Cells for random small files: the point is the dtype-inference order (int64, uint64, float64,
# bool, object) on mixtures, which hand-written cases cannot cover.
FUZZ_TOKENS = [
    "1", "-2", "007", "+3", " 4 ", "1.5", "-0", "-0.0", "1e5", "1E-3", "inf", "-Infinity", "NaN", "nan", "NA", "",
    "None", "null", "True", "false", "TRUE", "tRuE", "x", "abc", "9007199254740993", "9223372036854775807",
    "9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616", "1e400",
    "-1e400", ".5", "1.", ".", "0x10", "1_0", '"q"', '"a,b"', '"x""y"', " ", "#N/A", "<NA>", "n/a", "-nan",
    "1.#IND", "2.5 ", "\t7", '"m\nl"', '"p\r\nq"',
]


def fuzz_cases(n, seed):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        ncols = rng.randint(1, 3)
        lines = [",".join(f"c{j}" for j in range(ncols))]
        pools = [rng.sample(FUZZ_TOKENS, rng.randint(1, 4)) for _ in range(ncols)]
        for _ in range(rng.randint(0, 10)):
            if rng.random() < 0.05:
                lines.append(rng.choice(["", " ", "\t"]))
            k = ncols if rng.random() < 0.85 else rng.randint(1, ncols)
            lines.append(",".join(rng.choice(pools[j]) for j in range(k)))
        text = "\n".join(lines) + rng.choice(["\n", "", "\r\n"])
        out.append((f"fuzz_{i}", text.encode()))
    return out


def enc_float(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0 and math.copysign(1.0, v) < 0:
        return "-0.0"
    return v


def enc_values(series):
    kind = series.dtype.kind
    out = []
    for v in series.tolist():
        if kind in "iu":
            out.append(str(int(v)))
        elif kind == "f":
            out.append(enc_float(v))
        elif kind == "b":
            out.append(bool(v))
        else:
            if v is None or (isinstance(v, float) and math.isnan(v)):
                out.append(None)
            elif isinstance(v, (bool, np.bool_)):
                out.append(bool(v))
            elif isinstance(v, str):
                out.append(v)
            else:
                raise TypeError(f"unexpected object value {v!r}")
    return out


def read_case(name, data):
    case = {"name": name, "input_b64": base64.b64encode(data).decode()}
    try:
        df = pd.read_csv(io.BytesIO(data), float_precision="round_trip",
                         keep_default_na=False, na_values=NA_VALUES)
    except Exception as e:  # noqa: BLE001 - the error is the expected answer
        case["error"] = type(e).__name__
        case["message"] = str(e).strip()
        return case
    case["columns"] = [str(c) for c in df.columns]
    case["dtypes"] = [str(df[c].dtype) for c in df.columns]
    case["values"] = [enc_values(df.iloc[:, i]) for i in range(df.shape[1])]
    return case


def bits(x):
    return struct.pack(">d", x).hex()


def repr_cases():
    rng = random.Random(20240611)
    xs = [0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.1 + 0.2, 1 / 3, 2 / 3, 100.0, 1e15, 1e16, 1e17, 9999999999999998.0,
          1e-4, 1e-5, 0.00012345, 1.5e-5, 123456789012345680000.0, 1.2345678901234567e16, 1e22, 1e23,
          1e100, 1e-100, 1e308, 1.7976931348623157e308, 2.2250738585072014e-308, 2.225073858507201e-308,
          5e-324, 1e-323, 4.9406564584124654e-324, 9007199254740992.0, 9007199254740993.0, 123.456,
          -123.456, 0.5, 1.5, 2.5, 1e21, 1e-7, 12345678.9, 3.141592653589793, 2.718281828459045,
          float("inf"), float("-inf"), float("nan"), 1234567890123456.7, 0.000099999999999999, 9.5367431640625e-07]
    xs += [10.0 ** k for k in range(-20, 25)]
    for _ in range(60):  # random bit patterns: any exponent, subnormals included
        x = struct.unpack(">d", rng.getrandbits(64).to_bytes(8, "big"))[0]
        if math.isfinite(x):
            xs.append(x)
    for _ in range(40):  # everyday magnitudes
        xs.append(rng.uniform(-1e6, 1e6) * 10.0 ** rng.randint(-12, 12))
    for _ in range(20):
        xs.append(rng.random())
    for _ in range(10):  # subnormals
        xs.append(rng.randint(1, 2 ** 52 - 1) * 5e-324)
    return [[bits(x), repr(x)] for x in xs]


def col(name, kind, values):
    return {"name": name, "kind": kind, "values": values}


def write_cases():
    cases = []

    def add(name, df, spec):
        cases.append({"name": name, "columns": spec, "csv": df.to_csv(index=False)})

    fl = [0.1, -0.0, float("inf"), float("-inf"), 1e16, 1e-5, 123456789012345680000.0, 1e22, 5e-324, float("nan"),
          1.0, 100.0, 0.30000000000000004, 1e15, 2.5e-7]
    add("floats", pd.DataFrame({"x": fl}), [col("x", "float", [enc_float(v) for v in fl])])
    add("ints_bools", pd.DataFrame({"id": [1, -2, 9007199254740992], "ok": [True, False, True]}),
        [col("id", "int", ["1", "-2", "9007199254740992"]), col("ok", "bool", [True, False, True])])
    big = [2 ** 63 - 1, -(2 ** 63), 12]
    add("bigints", pd.DataFrame({"b": np.array(big, dtype=np.int64)}), [col("b", "bigint", [str(v) for v in big])])
    add("uint64", pd.DataFrame({"u": np.array([2 ** 64 - 1, 0], dtype=np.uint64)}),
        [col("u", "bigint", [str(2 ** 64 - 1), "0"])])
    strs = [" x", "y ", "a,b", 'q"q', "l\nm", "tab\tt", "#x", "'", "é", "", None, "NA", "None", '"', ","]
    add("strings", pd.DataFrame({"s": strs, "n": list(range(len(strs)))}),
        [col("s", "string", strs), col("n", "int", [str(i) for i in range(len(strs))])])
    add("single_column_empty_and_nan", pd.DataFrame({"a": [np.nan, 1.5]}), [col("a", "float", ["nan", 1.5])])
    add("single_column_empty_string", pd.DataFrame({"a": ["", "x", None]}), [col("a", "string", ["", "x", None])])
    add("object_bools", pd.DataFrame({"a": [True, None, False]}), [col("a", "object", [True, None, False])])
    add("odd_names", pd.DataFrame({"a,b": [1], 'c"': [2], "": [3], "d e": [4]}),
        [col("a,b", "int", ["1"]), col('c"', "int", ["2"]), col("", "int", ["3"]), col("d e", "int", ["4"])])
    add("single_empty_name", pd.DataFrame({"": [1]}), [col("", "int", ["1"])])
    add("no_rows", pd.DataFrame({"a": pd.Series([], dtype=float), "b": pd.Series([], dtype=object)}),
        [col("a", "float", []), col("b", "string", [])])
    add("no_columns", pd.DataFrame(), [])
    rng = random.Random(7)
    rnd = [rng.random() * 10.0 ** rng.randint(-8, 8) for _ in range(50)]
    add("random_floats", pd.DataFrame({"id": list(range(50)), "p": rnd}),
        [col("id", "int", [str(i) for i in range(50)]), col("p", "float", rnd)])
    return cases


def main():
    out = {
        "generator": "scripts/golden/csv_cases.py",
        "pandas": pd.__version__,
        "numpy": np.__version__,
        "python": sys.version.split()[0],
        "na_values": NA_VALUES,
        "read": [read_case(n, d) for n, d in READ_CASES + fuzz_cases(300, 20240612)],
        "repr": repr_cases(),
        "write": write_cases(),
    }
    path = Path(__file__).resolve().parents[2] / "test" / "golden" / "csv.json"
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}: {len(out['read'])} read cases, {len(out['repr'])} floats, {len(out['write'])} frames")


if __name__ == "__main__":
    main()
