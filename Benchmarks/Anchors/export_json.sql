-- Anchor for `kura export`: the sqlite3 command line writes the people of normalized.sql's tables as
-- a JSON array, one nested document per person and per line, shaped like Kura's whole-realm export
-- (address, dogs in list order with their set of cities, map of parks, companion and toy,
-- createdAt as {"$date": ...}).
--
-- usage: sqlite3 DB ".read Anchors/export_json.sql" > people-out.json
--
-- Each line is built by json_object, with correlated subqueries and json_group_array /
-- json_group_object for the collections; SQLite's JSON functions produce the text, the command
-- line's list mode prints one row per line; every line but the last ends with a comma, as Kura
-- writes its arrays.
.headers off
.mode list
SELECT '[';
SELECT json_object(
        '$type', 'Person',
        'id', p.id,
        'name', p.name,
        'dogs', (SELECT json_group_array(json(dog_json)) FROM (
            SELECT json_object(
                'name', d.name,
                'age', d.age,
                'color', d.color,
                'currentCity', d.current_city,
                'citiesVisited', (SELECT json_group_array(c.value) FROM dog_cities AS c
                                  WHERE c.owner = d.object_id),
                'favoriteParksByCity', (SELECT json_group_object(m.key, m.value) FROM dog_parks AS m
                                        WHERE m.owner = d.object_id),
                'companion', CASE d.companion_type
                                 WHEN 'true' THEN json('true')
                                 WHEN 'false' THEN json('false')
                                 WHEN 'object' THEN json(d.companion)
                                 WHEN 'array' THEN json(d.companion)
                                 ELSE d.companion END,
                'favoriteToy', (SELECT json_object('name', t.name) FROM dog_toy AS t
                                WHERE t.object_id = d.favorite_toy)) AS dog_json
            FROM person_dogs AS pd JOIN dog AS d ON d.object_id = pd.dog
            WHERE pd.owner = p.object_id ORDER BY pd.pos)),
        'address', (SELECT json_object('street', a.street, 'city', a.city, 'country', a.country,
                                       'postalCode', a.postal_code)
                    FROM address AS a WHERE a.object_id = p.address),
        'bestFriend', (SELECT b.id FROM person AS b WHERE b.object_id = p.best_friend),
        'createdAt', json_object('$date',
                                 strftime('%Y-%m-%dT%H:%M:%fZ', p.created_at / 1000.0, 'unixepoch')))
    || CASE WHEN p.object_id = (SELECT max(object_id) FROM person) THEN '' ELSE ',' END
FROM person AS p ORDER BY p.object_id;
SELECT ']';
