// Kura Studio: a type's objects as a paged table with a predicate and sorting, and one object's
// page with the objects that link to it.
"use strict";

Studio.pageSize = 50;
// The cursors of the pages before the one shown, per query, for "Previous".
Studio.trails = new Map();

// The type the route names; an error saying the realm has no such type otherwise.
Studio.typeOf = function (schema, realm, typeName) {
    const type = schema.byName.get(typeName);
    if (!type) throw new Studio.ApiError(404, null, "realm '" + realm + "' has no type '" + typeName + "'");
    return type;
};

// Whether a property can be a sort key: a single value, not a link or a collection.
Studio.sortable = function (property) {
    return property.type.collection === null && property.type.scalar && property.type.base !== "data";
};

// A refused predicate: the message, and when it names a column of the predicate, the predicate
// again with that character marked, and the cursor put there in the box.
Studio.showQueryError = function (box, input, message, where) {
    const el = Studio.el;
    const match = /^where: column (\d+): /.exec(message);
    if (!match) { box.replaceChildren(Studio.message("error", message)); return; }
    // Columns count Unicode scalars; the box counts UTF-16 units.
    const scalars = Array.from(where);
    const column = Math.min(Number(match[1]), scalars.length + 1);
    const before = scalars.slice(0, column - 1).join("");
    const at = scalars.slice(column - 1, column).join("");
    const after = scalars.slice(column).join("");
    box.replaceChildren(
        el("pre", {class: "where-mark", "aria-hidden": "true"}, before, el("mark", {}, at || " "), after),
        Studio.message("error", message));
    input.focus();
    input.setSelectionRange(before.length, before.length + at.length);
};

Studio.showObjects = async function (view, realm, typeName, query) {
    const el = Studio.el;
    const schema = await Studio.schema(realm);
    const type = Studio.typeOf(schema, realm, typeName);
    const where = query.get("where") || "";
    const sort = query.get("sort") || "";
    const after = query.get("after") || "";
    const trailKey = [realm, typeName, where, sort].join("\u0000");
    if (!after) Studio.trails.set(trailKey, []);
    const trail = Studio.trails.get(trailKey) || [];
    const go = (changes) => {
        const next = Object.assign({where, sort}, changes);
        location.hash = Studio.link(["r", realm, "t", typeName], next);
    };

    const input = el("input", {id: "where", type: "search", value: where, spellcheck: "false", "aria-label": "where",
        placeholder: "a predicate, such as name BEGINSWITH 'A' AND age > 2"});
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") go({where: input.value.trim(), sort}); });
    const errorBox = el("div", {id: "where-error"});
    view.replaceChildren(
        el("h1", {}, typeName, el("span", {class: "sub"}, " in " + realm)),
        el("p", {class: "meta"},
            type.primaryKey ? "primary key " + type.primaryKey : "no primary key",
            " · ", el("a", {href: Studio.link(["r", realm, "schema"])}, "schema"),
            " · ", el("a", {href: Studio.link(["r", realm, "transfer"], {type: typeName})}, "import or export"),
            type.embedded || Studio.readOnly() ? null : [" · ", el("a", {id: "new-object", href: Studio.link(["r", realm, "t", typeName, "new"])}, "New " + typeName)]),
        el("div", {class: "query"}, el("label", {for: "where"}, "where"), input,
            el("button", {type: "button", id: "where-apply", onclick: () => go({where: input.value.trim(), sort})}, "Filter"),
            where ? el("button", {type: "button", onclick: () => go({where: "", sort})}, "Clear") : null),
        errorBox,
        el("p", {class: "loading"}, "Loading…"));

    let page;
    try {
        page = await Studio.getJSON(Studio.realmPath(realm, "objects", typeName)
            + Studio.query({limit: Studio.pageSize, where, sort, after, nestedUrls: "true"}));
    } catch (error) {
        view.querySelector(".loading").remove();
        if (error.status === 400) { Studio.showQueryError(errorBox, input, error.message, where); return; }
        throw error;
    }
    view.querySelector(".loading").remove();

    const ctx = {realm, schema, compact: true, addresses: Studio.addressesOf(page.objects, page.urls)};
    const columns = type.properties.filter((property) => property.type.collection !== "backlinks");
    const [sortName, sortDirection] = sort.split(/\s+/);
    // Objects without a primary key are opened by their object id, the last part of their URL.
    const idHeader = type.primaryKey ? [] : [el("th", {class: "object-id", title: "the object id, which names the object in its URL"}, "#")];
    const header = idHeader.concat(columns.map((property) => {
        if (!Studio.sortable(property)) return el("th", {title: property.type.text}, property.name);
        const current = sortName === property.name ? (sortDirection === "desc" ? "desc" : "asc") : null;
        const nextSort = current === null ? property.name : current === "asc" ? property.name + " desc" : "";
        return el("th", {class: "sortable" + (current ? " sorted-" + current : ""), title: property.type.text + " (click to sort)",
            "aria-sort": current === "asc" ? "ascending" : current === "desc" ? "descending" : "none"},
        el("button", {type: "button", class: "sort", onclick: () => go({where, sort: nextSort})},
            property.name, current === "asc" ? " ▲" : current === "desc" ? " ▼" : ""));
    }));
    const rows = page.objects.map((document, index) => {
        const address = Studio.objectAddress((page.urls || [])[index]);
        const idCell = type.primaryKey ? [] : [el("td", {class: "key"}, address ? el("a", {class: "open", href: address.hash}, address.key) : null)];
        return el("tr", {}, idCell, columns.map((property) => {
            const value = document[property.name];
            if (type.primaryKey === property.name && value !== null && value !== undefined) {
                return el("td", {class: "key"}, el("a", {class: "open", href: Studio.link(["r", realm, "t", typeName, "k", Studio.keyText(value)])},
                    Studio.keyText(value)));
            }
            return el("td", {}, Studio.renderValue(value, property.type, ctx, 1));
        }));
    });
    const first = trail.length * Studio.pageSize + 1;
    const shown = page.objects.length === 0
        ? (page.count === 0 ? "No objects" : "No more objects") + (where ? " match" : "")
        : "Objects " + Studio.formatCount(first) + "–" + Studio.formatCount(first + page.objects.length - 1) + " of " + Studio.formatCount(page.count);
    let nextCursor = null;
    if (page.next) nextCursor = new URL(page.next, location.origin).searchParams.get("after");
    view.append(
        el("div", {class: "table-wrap"}, el("table", {class: "objects"}, el("thead", {}, el("tr", {}, header)), el("tbody", {}, rows))),
        el("div", {class: "pager"},
            el("span", {id: "page-status"}, shown),
            trail.length > 0 ? el("button", {type: "button", id: "page-previous", onclick: () => {
                const previous = trail.pop();
                go({where, sort, after: previous});
            }}, "Previous") : null,
            nextCursor ? el("button", {type: "button", id: "page-next", onclick: () => {
                trail.push(after);
                Studio.trails.set(trailKey, trail);
                go({where, sort, after: nextCursor});
            }}, "Next") : null));
};

Studio.showObject = async function (view, realm, typeName, key) {
    const el = Studio.el;
    const schema = await Studio.schema(realm);
    const type = Studio.typeOf(schema, realm, typeName);
    const url = Studio.realmPath(realm, "objects", typeName, key);
    const response = await Studio.request(url + Studio.query({nestedUrls: "true"}), {headers: {"Accept": "application/json"}});
    const text = await response.text();
    const document = Studio.parseJSON(text);
    // The ETag If-Match takes is that of the document alone; one with nested objects' "$url"s is
    // another representation, with a tag of its own. (No string holds `"$url":`: its quote would be escaped.)
    let etag = response.headers.get("ETag");
    if (text.includes('"$url":')) etag = (await Studio.request(url, {headers: {"Accept": "application/json"}})).headers.get("ETag");
    const ctx = {realm, schema, addresses: Studio.addressesOf([document], [url])};
    const rows = type.properties.filter((property) => property.type.collection !== "backlinks").map((property) =>
        el("tr", {"data-property": property.name}, el("th", {}, property.name, el("span", {class: "type-text"}, property.type.text)),
            el("td", {}, Studio.renderValue(document[property.name], property.type, ctx, 1))));
    const backlinks = el("section", {id: "backlinks"}, el("h2", {}, "Linked from"), el("p", {class: "loading"}, "Loading…"));
    view.replaceChildren(
        el("h1", {}, typeName + " ", el("span", {class: "key-title"}, key), el("span", {class: "sub"}, " in " + realm)),
        el("p", {class: "meta"}, el("a", {href: Studio.link(["r", realm, "t", typeName])}, "all " + typeName + " objects"),
            type.primaryKey ? null : " · no primary key: named by its object id",
            " · ETag ", el("code", {}, etag || "none")),
        el("div", {id: "object-actions", class: "object-actions"}),
        el("div", {class: "table-wrap plain-wrap"}, el("table", {class: "object"}, el("tbody", {}, rows))),
        backlinks);
    Studio.enableEditing(view, {realm, schema, type, key, url, etag, document});
    await Studio.showBacklinks(backlinks, realm, schema, type, key, document[type.primaryKey]);
};

// The objects whose links reach object `key` of `type` (GET …/backlinks): one group per property
// that can, each object a link to its page. For an object with a primary key, a group with more
// than are shown links to the table of all of them (the predicate ANY dogs.id == 1).
Studio.showBacklinks = async function (section, realm, schema, type, key, keyValue) {
    const el = Studio.el;
    const shown = 20;
    let body;
    try {
        body = await Studio.getJSON(Studio.realmPath(realm, "objects", type.name, key, "backlinks") + Studio.query({limit: shown}));
    } catch (error) {
        body = {backlinks: [], error};
    }
    section.querySelector(".loading").remove();
    if (body.error) { section.append(Studio.message("error", body.error.message)); return; }
    const groups = body.backlinks || [];
    if (groups.length === 0) { section.append(el("p", {class: "empty"}, "No type links to " + type.name + ".")); return; }
    for (const group of groups) {
        // The linkingObjects properties of this type that declare the same relation.
        const names = type.properties.filter((p) => p.type.collection === "backlinks" && p.type.base === group.type && p.type.via === group.property)
            .map((p) => p.name);
        const box = el("div", {class: "backlink-group"},
            el("h3", {}, group.type + "." + group.property + (names.length ? " (as " + names.join(", ") + ")" : "")));
        section.append(box);
        if (group.count === 0) { box.append(el("p", {class: "empty"}, "none")); continue; }
        box.append(el("ul", {class: "backlinks"}, (group.urls || []).map((url) => {
            const address = Studio.objectAddress(url);
            return el("li", {}, address ? el("a", {class: "link", href: address.hash}, address.type + " " + address.key) : url);
        })));
        if (group.count > (group.urls || []).length) {
            const origin = schema.byName.get(group.type);
            const many = origin && origin.properties.some((p) => p.name === group.property && p.type.collection !== null);
            const all = "all " + Studio.formatCount(group.count);
            if (type.primaryKey && keyValue !== undefined && keyValue !== null) {
                const predicate = (many ? "ANY " : "") + group.property + "." + type.primaryKey + " == " + Studio.keyLiteral(type, keyValue);
                box.append(el("p", {}, el("a", {href: Studio.link(["r", realm, "t", group.type], {where: predicate})}, all)));
            } else {
                box.append(el("p", {class: "note"}, "the first " + Studio.formatCount((group.urls || []).length) + " of " + Studio.formatCount(group.count)));
            }
        }
    }
};