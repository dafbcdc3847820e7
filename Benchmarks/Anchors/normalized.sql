-- The normalized tables of the transfer anchors (transfer.sh): the people dataset stored the way a
-- Kura realm stores it, one table per type and per collection property, with the same keys and
-- indexes, so an anchor writes the same rows into the same kinds of B-trees as `kura import`.
-- Read by the sqlite3 command line anchor (import_json_each.sql) and by import_normalized.py.
--
--   person        Person: "id" primary key (unique index), createdAt as milliseconds since 1970,
--                 bestFriend (always null in the dataset), address -> address.object_id
--   address       the embedded Address, one row per person (Kura stores embedded objects so too)
--   dog           Dog; companion (mixed) as a value plus a tag column: the JSON type of the value
--   dog_toy       DogToy, linked from dog.favorite_toy
--   person_dogs   Person.dogs, a list: owner, position, dog
--   dog_cities    Dog.citiesVisited, a set of strings
--   dog_parks     Dog.favoriteParksByCity, a map of strings
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;

CREATE TABLE dog_toy (object_id INTEGER PRIMARY KEY, name TEXT) STRICT;
CREATE TABLE dog (
    object_id INTEGER PRIMARY KEY, name TEXT, age INTEGER, color TEXT, current_city TEXT,
    companion ANY, companion_type TEXT NOT NULL, favorite_toy INTEGER) STRICT;
CREATE INDEX dog_favorite_toy ON dog (favorite_toy);
CREATE TABLE dog_cities (owner INTEGER NOT NULL, value TEXT) STRICT;
CREATE INDEX dog_cities_owner ON dog_cities (owner);
CREATE TABLE dog_parks (
    owner INTEGER NOT NULL, key TEXT NOT NULL, value TEXT,
    PRIMARY KEY (owner, key)) WITHOUT ROWID, STRICT;
CREATE TABLE address (
    object_id INTEGER PRIMARY KEY, street TEXT, city TEXT, country TEXT, postal_code TEXT) STRICT;
CREATE TABLE person (
    object_id INTEGER PRIMARY KEY, id INTEGER, name TEXT, address INTEGER, best_friend INTEGER,
    created_at INTEGER) STRICT;
CREATE UNIQUE INDEX person_id ON person (id);
CREATE INDEX person_address ON person (address);
CREATE INDEX person_best_friend ON person (best_friend);
CREATE TABLE person_dogs (
    owner INTEGER NOT NULL, pos INTEGER NOT NULL, dog INTEGER,
    PRIMARY KEY (owner, pos)) WITHOUT ROWID, STRICT;
CREATE INDEX person_dogs_dog ON person_dogs (dog);
