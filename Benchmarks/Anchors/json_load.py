#!/usr/bin/env python3
"""Anchor for the parse-and-map benchmark: plain python3 json.load on the whole file.

Prints a line like kura-probe map's: documents=N unknownKeys=0 errors=0 bytes=B seconds=S, where S is
measured on a monotonic clock around opening, reading and parsing the file.

usage: json_load.py FILE
"""
import json
import os
import sys
import time


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: json_load.py FILE")
    path = sys.argv[1]
    start = time.perf_counter()
    with open(path, "rb") as f:
        value = json.load(f)
    seconds = time.perf_counter() - start
    if not isinstance(value, list):
        sys.exit("json_load.py: the top-level value is not an array")
    size = os.path.getsize(path)
    print(f"documents={len(value)} unknownKeys=0 errors=0 bytes={size} seconds={seconds:.4f}")


if __name__ == "__main__":
    main()
