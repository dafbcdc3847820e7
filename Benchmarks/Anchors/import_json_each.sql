-- Anchor for `kura import`: the sqlite3 command line fills the tables of normalized.sql from a JSON
-- array of people with SQLite's JSON1 functions, in one transaction.
--
-- usage: sqlite3 DB ".read Anchors/normalized.sql"                       (once, not timed)
--        sqlite3 DB ".parameter set :input PEOPLE.json" ".read Anchors/import_json_each.sql"
--
-- The file is parsed once, by json_each over readfile(); each person's text goes into a temporary
-- table, numbered in document order (the number is the person's and its address's object id), and
-- each dog's text into a second one whose rowid becomes the dog's object id (and its toy's). Every
-- table is then filled by one INSERT ... SELECT with json_extract, and nested json_each for the
-- set of cities and the map of parks.
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
BEGIN;

CREATE TEMP TABLE person_doc (n INTEGER PRIMARY KEY, body TEXT NOT NULL);
INSERT INTO temp.person_doc (n, body)
    SELECT key + 1, value FROM json_each(readfile(:input));

CREATE TEMP TABLE dog_doc (n INTEGER PRIMARY KEY, owner INTEGER NOT NULL, pos INTEGER NOT NULL,
    body TEXT NOT NULL);
INSERT INTO temp.dog_doc (owner, pos, body)
    SELECT p.n, d.key, d.value FROM temp.person_doc AS p, json_each(p.body, '$.dogs') AS d;

INSERT INTO address (object_id, street, city, country, postal_code)
    SELECT n, json_extract(body, '$.address.street'), json_extract(body, '$.address.city'),
           json_extract(body, '$.address.country'), json_extract(body, '$.address.postalCode')
    FROM temp.person_doc WHERE json_type(body, '$.address') = 'object';

-- createdAt is "now" for every person, in milliseconds since 1970 (as Kura stores dates).
INSERT INTO person (object_id, id, name, address, best_friend, created_at)
    SELECT n, json_extract(body, '$.id'), json_extract(body, '$.name'),
           CASE WHEN json_type(body, '$.address') = 'object' THEN n END, NULL,
           CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM temp.person_doc;

INSERT INTO dog_toy (object_id, name)
    SELECT n, json_extract(body, '$.favoriteToy.name')
    FROM temp.dog_doc WHERE json_type(body, '$.favoriteToy') = 'object';

INSERT INTO dog (object_id, name, age, color, current_city, companion, companion_type, favorite_toy)
    SELECT n, json_extract(body, '$.name'), json_extract(body, '$.age'),
           json_extract(body, '$.color'), json_extract(body, '$.currentCity'),
           json_extract(body, '$.companion'), coalesce(json_type(body, '$.companion'), 'null'),
           CASE WHEN json_type(body, '$.favoriteToy') = 'object' THEN n END
    FROM temp.dog_doc;

INSERT INTO person_dogs (owner, pos, dog)
    SELECT owner, pos, n FROM temp.dog_doc;

INSERT INTO dog_cities (owner, value)
    SELECT d.n, c.value FROM temp.dog_doc AS d, json_each(d.body, '$.citiesVisited') AS c;

INSERT INTO dog_parks (owner, key, value)
    SELECT d.n, p.key, p.value FROM temp.dog_doc AS d, json_each(d.body, '$.favoriteParksByCity') AS p;

COMMIT;
