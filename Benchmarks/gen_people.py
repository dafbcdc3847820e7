#!/usr/bin/env python3
# Copied unchanged (apart from this comment) from /work/shared/bench/gen_people.py, the project's
# shared people-dataset generator, so the benchmarks are self-contained. Not written for this
# repository: keep its output identical to the original (same seed, same shape).
"""Deterministic sample data for import/export benchmarks.

Writes N Person documents shaped like the Dog/Person/DogToy/Address model:
nested to-many dogs, an embedded address, a to-one toy, a set of cities,
a map of parks by city and a mixed-type companion.

usage: gen_people.py N [--format json|jsonl|yaml] > people.json
"""
import json
import random
import sys

CITIES = ["Tokyo", "Osaka", "Kyoto", "New York", "Chicago", "Ottawa", "Boston",
          "Paris", "Berlin", "Lisbon", "Sapporo", "Nagoya"]
COLORS = ["brown", "black", "white", "golden", "grey", "spotted"]
NAMES = ["Rex", "Fido", "Maui", "Wolfie", "Pluto", "Buster", "Buddy", "Taro",
         "Hanako", "Wanko", "Spot", "Max"]
TOYS = ["Tennis ball", "Rope", "Frisbee", "Squeaky duck", "Bone"]


def person(rng, pid):
    dogs = []
    for d in range(rng.randint(0, 3)):
        visited = rng.sample(CITIES, rng.randint(0, 4))
        parks = {c: f"{c} Park {rng.randint(1, 9)}" for c in visited[:2]}
        companion = rng.choice([None, f"Cat {rng.randint(1, 99)}", rng.randint(1, 1000), 2.5, True])
        dog = {
            "name": f"{rng.choice(NAMES)} {pid}-{d}",
            "age": rng.randint(0, 17),
            "color": rng.choice(COLORS),
            "currentCity": rng.choice(CITIES),
            "citiesVisited": visited,
            "favoriteParksByCity": parks,
            "companion": companion,
        }
        if rng.random() < 0.5:
            dog["favoriteToy"] = {"name": rng.choice(TOYS)}
        dogs.append(dog)
    return {
        "id": pid,
        "name": f"Person {pid}",
        "address": {
            "street": f"{rng.randint(1, 999)} Main St",
            "city": rng.choice(CITIES),
            "country": "JP",
            "postalCode": f"{rng.randint(100, 999)}-{rng.randint(1000, 9999)}",
        },
        "dogs": dogs,
    }


def main():
    n = int(sys.argv[1])
    fmt = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--format" else "json"
    rng = random.Random(20181009)
    out = sys.stdout
    if fmt == "jsonl":
        for i in range(1, n + 1):
            out.write(json.dumps(person(rng, i), ensure_ascii=False) + "\n")
    elif fmt == "yaml":
        for i in range(1, n + 1):
            out.write("---\n" + json.dumps(person(rng, i), ensure_ascii=False) + "\n")
    else:
        out.write("[\n")
        for i in range(1, n + 1):
            out.write(("," if i > 1 else "") + json.dumps(person(rng, i), ensure_ascii=False) + "\n")
        out.write("]\n")


if __name__ == "__main__":
    main()
