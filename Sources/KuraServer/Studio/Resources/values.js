// Kura Studio: a document's values shown inline (links, embedded objects, lists, sets, maps,
// mixed values, typed wrappers), by the schema's type of each property.
"use strict";

// Nested objects deeper than this are shown as "…" (export nests them only so deep anyway).
Studio.maxDepth = 6;
// In a table's cells (ctx.compact), collections show this many items, then how many more.
Studio.compactItems = 5;

// The text of a typed wrapper ({"$date": …}, {"$oid": …}, …), or null when value is not one.
Studio.wrapperText = function (value) {
    if (!value || typeof value !== "object" || Array.isArray(value)) return null;
    const keys = Object.keys(value);
    if (keys.length !== 1) return null;
    const inner = value[keys[0]];
    switch (keys[0]) {
        case "$date": return typeof inner === "object" && inner ? JSON.stringify(inner) : String(inner);
        case "$oid": return "oid(" + inner + ")";
        case "$uuid": return String(inner);
        case "$numberDecimal": return String(inner);
        case "$numberLong": return String(inner);
        case "$binary": {
            const base64 = inner && inner.base64 ? String(inner.base64) : "";
            const bytes = Math.floor(base64.replace(/=+$/, "").length * 3 / 4);
            return "data, " + bytes + (bytes === 1 ? " byte" : " bytes");
        }
        default: return null;
    }
};

// A link to the page of object `key` of `typeName` in the realm of ctx.
Studio.objectLink = function (ctx, typeName, key) {
    const text = Studio.keyText(key);
    return Studio.el("a", {class: "link", href: Studio.link(["r", ctx.realm, "t", typeName, "k", text]),
        title: typeName + " " + text}, typeName + " " + text);
};

// The element showing `value` of a property of type `type` (Studio.parseType).
Studio.renderValue = function (value, type, ctx, depth) {
    const el = Studio.el;
    if (value === null || value === undefined) return el("span", {class: "null"}, "null");
    if (depth > Studio.maxDepth) return el("span", {class: "more", title: "nested too deeply to show here"}, "…");
    if (type.collection === "list" || type.collection === "set") {
        if (!Array.isArray(value)) return Studio.renderPlain(value);
        const element = Object.assign({}, type, {collection: null});
        const shown = ctx.compact ? value.slice(0, Studio.compactItems) : value;
        return el("ul", {class: "items " + type.collection},
            value.length === 0 ? el("li", {class: "empty"}, type.collection === "set" ? "empty set" : "empty list") : null,
            shown.map((item) => el("li", {}, Studio.renderValue(item, element, ctx, depth + 1))),
            value.length > shown.length ? el("li", {class: "more"}, "+" + Studio.formatCount(value.length - shown.length) + " more") : null);
    }
    if (type.collection === "map") {
        if (typeof value !== "object" || Array.isArray(value)) return Studio.renderPlain(value);
        const element = Object.assign({}, type, {collection: null});
        const entries = Object.entries(value);
        if (entries.length === 0) return el("span", {class: "empty"}, "empty map");
        const shown = ctx.compact ? entries.slice(0, Studio.compactItems) : entries;
        return el("dl", {class: "map"}, shown.map(([key, item]) =>
            [el("dt", {}, key), el("dd", {}, Studio.renderValue(item, element, ctx, depth + 1))]),
        entries.length > shown.length ? [el("dt", {class: "more"}, "+" + Studio.formatCount(entries.length - shown.length) + " more"), el("dd", {})] : null);
    }
    if (type.base === "mixed") return Studio.renderMixed(value, ctx, depth);
    if (type.scalar) return Studio.renderScalar(value, type.base);
    const target = ctx.schema.byName.get(type.base);
    if (!target) return Studio.renderPlain(value);
    if (typeof value === "object" && !Array.isArray(value) && value.$ref !== undefined && Object.keys(value).length === 1) {
        return Studio.renderRef(value.$ref, ctx);
    }
    if (target.primaryKey && (typeof value !== "object" || Studio.wrapperText(value) !== null)) {
        return Studio.objectLink(ctx, target.name, value);
    }
    if (typeof value === "object" && !Array.isArray(value)) return Studio.renderObject(value, target, ctx, depth + 1);
    return Studio.renderPlain(value);
};

Studio.renderScalar = function (value, base) {
    const el = Studio.el;
    const wrapped = Studio.wrapperText(value);
    if (wrapped !== null) return el("span", {class: "scalar " + base}, wrapped);
    if (typeof value === "object") return Studio.renderPlain(value);
    if (base === "string") return el("span", {class: "scalar string"}, String(value));
    const text = Object.is(value, -0) ? "-0" : String(value);
    return el("span", {class: "scalar " + (typeof value === "bigint" ? "number" : typeof value)}, text);
};

// `{"$ref": id}`: the object marked "$id": id elsewhere in the page, a link to its own page when
// the page gave its URL.
Studio.renderRef = function (id, ctx) {
    const el = Studio.el;
    const title = "the object marked \"$id\": " + id + " elsewhere on this page";
    const address = ctx.addresses ? Studio.objectAddress(ctx.addresses.get(String(id))) : null;
    if (!address) return el("span", {class: "ref", title}, "↺ " + id);
    return el("span", {class: "ref", title}, "↺ ", el("a", {class: "link", href: address.hash}, address.type + " " + address.key));
};

// A mixed value: a scalar, a typed wrapper, a link ({"$type", "$key"}), an object of a type
// ({"$type", …}), or a nested list or map of mixed values.
Studio.renderMixed = function (value, ctx, depth) {
    const el = Studio.el;
    const mixed = {collection: null, base: "mixed", scalar: true};
    if (Array.isArray(value)) return Studio.renderValue(value, Object.assign({}, mixed, {collection: "list"}), ctx, depth);
    if (value && typeof value === "object") {
        if (Studio.wrapperText(value) !== null) return el("span", {class: "scalar mixed"}, Studio.wrapperText(value));
        if (typeof value.$type === "string") {
            const target = ctx.schema.byName.get(value.$type);
            if (target && value.$key !== undefined) return Studio.objectLink(ctx, target.name, value.$key);
            if (target && value.$ref !== undefined && Object.keys(value).length === 2) return Studio.renderRef(value.$ref, ctx);
            if (target) {
                const fields = Object.assign({}, value);
                delete fields.$type;
                return Studio.renderObject(fields, target, ctx, depth + 1);
            }
        }
        return Studio.renderValue(value, Object.assign({}, mixed, {collection: "map"}), ctx, depth);
    }
    return Studio.renderScalar(value, typeof value === "string" ? "string" : "mixed");
};

// A nested object (embedded, or a linked object without a primary key) as a small box; in a
// table's cell, folded to its type and first values, opened by a click.
Studio.renderObject = function (document, type, ctx, depth) {
    const el = Studio.el;
    if (ctx.compact) {
        const preview = type.properties.filter((property) => property.type.scalar && property.type.collection === null
            && document[property.name] !== null && document[property.name] !== undefined && typeof document[property.name] !== "object")
            .slice(0, 2).map((property) => String(document[property.name]));
        return el("details", {class: "folded"}, el("summary", {}, type.name + (preview.length ? " " + preview.join(", ") : "")),
            Studio.renderObject(document, type, Object.assign({}, ctx, {compact: false}), depth));
    }
    const rows = [];
    if (document.$id !== undefined) rows.push(el("div", {class: "field id"}, el("span", {class: "name"}, "$id"), String(document.$id)));
    for (const property of type.properties) {
        if (property.type.collection === "backlinks" || !(property.name in document)) continue;
        rows.push(el("div", {class: "field"}, el("span", {class: "name"}, property.name),
            Studio.renderValue(document[property.name], property.type, ctx, depth)));
    }
    // An object without a primary key carries its URL ("$url") where the page asked for it: its
    // heading is then a link to its own page.
    const address = Studio.objectAddress(document.$url);
    const heading = address
        ? el("a", {class: "link", href: address.hash, title: "open " + address.type + " " + address.key}, address.type + " " + address.key)
        : type.name + (type.embedded ? " (embedded)" : "");
    return el("div", {class: "nested" + (type.embedded ? " embedded" : "")}, el("span", {class: "type"}, heading), rows);
};

// Anything else, as JSON text.
Studio.renderPlain = function (value) {
    return Studio.el("code", {class: "plain"}, JSON.stringify(value));
};