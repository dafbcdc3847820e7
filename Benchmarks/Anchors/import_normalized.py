#!/usr/bin/env python3
"""Anchor for `kura import`: plain Python into the tables of normalized.sql.

usage: import_normalized.py PEOPLE.json DB

Reads the whole JSON array with json.load, turns it into one list of rows per table (object ids
numbered in document order, as the sqlite3 anchor does), and writes them with executemany in one
transaction, with journal_mode=WAL and synchronous=NORMAL. Creates the tables from normalized.sql
when DB has none. Prints "documents=N dogs=D seconds=S".
"""
import json
import os
import sqlite3
import sys
import time

DDL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "normalized.sql")


def json_type(value):
    """The tag stored beside a mixed value: the name SQLite's json_type gives its JSON type."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "real"
    if isinstance(value, str):
        return "text"
    return "array" if isinstance(value, list) else "object"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: import_normalized.py PEOPLE.json DB")
    source, target = sys.argv[1], sys.argv[2]
    start = time.perf_counter()
    with open(source, "rb") as handle:
        people = json.load(handle)

    created_at = int(time.time() * 1000)  # createdAt defaults to now, in ms since 1970
    persons, addresses, dogs, toys, person_dogs, cities, parks = [], [], [], [], [], [], []
    dog_id = 0
    for n, person in enumerate(people, start=1):
        address = person.get("address")
        if address is not None:
            addresses.append((n, address.get("street"), address.get("city"),
                              address.get("country"), address.get("postalCode")))
        persons.append((n, person["id"], person["name"], n if address is not None else None,
                        None, created_at))
        for pos, dog in enumerate(person.get("dogs", [])):
            dog_id += 1
            toy = dog.get("favoriteToy")
            if toy is not None:
                toys.append((dog_id, toy["name"]))
            companion = dog.get("companion")
            tag = json_type(companion)
            if tag == "true" or tag == "false":
                companion = int(companion)
            elif tag == "array" or tag == "object":
                companion = json.dumps(companion, ensure_ascii=False, separators=(",", ":"))
            dogs.append((dog_id, dog["name"], dog["age"], dog.get("color"), dog.get("currentCity"),
                         companion, tag, dog_id if toy is not None else None))
            person_dogs.append((n, pos, dog_id))
            cities.extend((dog_id, city) for city in dog.get("citiesVisited", []))
            parks.extend((dog_id, key, value)
                         for key, value in dog.get("favoriteParksByCity", {}).items())

    connection = sqlite3.connect(target, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    if connection.execute("SELECT count(*) FROM sqlite_master WHERE name = 'person'").fetchone()[0] == 0:
        with open(DDL, encoding="utf-8") as handle:
            connection.executescript(handle.read())
    connection.execute("BEGIN")
    connection.executemany("INSERT INTO address VALUES (?, ?, ?, ?, ?)", addresses)
    connection.executemany("INSERT INTO person VALUES (?, ?, ?, ?, ?, ?)", persons)
    connection.executemany("INSERT INTO dog_toy VALUES (?, ?)", toys)
    connection.executemany("INSERT INTO dog VALUES (?, ?, ?, ?, ?, ?, ?, ?)", dogs)
    connection.executemany("INSERT INTO person_dogs VALUES (?, ?, ?)", person_dogs)
    connection.executemany("INSERT INTO dog_cities VALUES (?, ?)", cities)
    connection.executemany("INSERT INTO dog_parks VALUES (?, ?, ?)", parks)
    connection.execute("COMMIT")
    connection.close()
    seconds = time.perf_counter() - start
    print(f"documents={len(persons)} dogs={len(dogs)} seconds={seconds:.3f}")


if __name__ == "__main__":
    main()
