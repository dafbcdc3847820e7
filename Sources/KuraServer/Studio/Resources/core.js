// Kura Studio: the shared pieces (the HTTP API with its token, elements, schemas, routes).
"use strict";
const Studio = {};

Studio.scalars = new Set(["bool", "int", "float", "double", "string", "date", "data", "decimal", "objectId", "uuid", "mixed"]);

// Builds an element: el("a", {href: "#/", class: "x", onclick: f}, "text", child, ...).
Studio.el = function (tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
        if (value === undefined || value === null || value === false) continue;
        if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
        else if (name === "dataset") Object.assign(node.dataset, value);
        else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
        if (child === undefined || child === null || child === false) continue;
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
};

// A query string ("?a=1&b=x%20y") of the given values, empty ones left out. Spaces are %20, not
// "+", which the server reads as a plus sign.
Studio.query = function (values) {
    const pairs = Object.entries(values).filter(([, value]) => value !== undefined && value !== null && value !== "")
        .map(([name, value]) => encodeURIComponent(name) + "=" + encodeURIComponent(String(value)));
    return pairs.length ? "?" + pairs.join("&") : "";
};

// The path of a realm's API, each part encoded.
Studio.realmPath = function (realm, ...parts) {
    return "/v1/realms/" + [realm, ...parts].map(encodeURIComponent).join("/");
};

// --- the token ------------------------------------------------------------------------------------

Studio.token = function () { return sessionStorage.getItem("kura.token") || ""; };

// Asks for a bearer token (why: the reason shown); resolves true when one was given.
Studio.askToken = function (why) {
    const dialog = document.getElementById("token-dialog");
    const input = document.getElementById("token-input");
    document.getElementById("token-reason").textContent = why || "";
    input.value = Studio.token();
    dialog.hidden = false;
    input.focus();
    return new Promise((resolve) => {
        const finish = (given) => {
            dialog.hidden = true;
            save.removeEventListener("click", onSave);
            cancel.removeEventListener("click", onCancel);
            input.removeEventListener("keydown", onKey);
            resolve(given);
        };
        const save = document.getElementById("token-save");
        const cancel = document.getElementById("token-cancel");
        const onSave = () => {
            const value = input.value.trim();
            if (value) sessionStorage.setItem("kura.token", value); else sessionStorage.removeItem("kura.token");
            finish(value !== "");
        };
        const onCancel = () => finish(false);
        const onKey = (event) => {
            if (event.key === "Enter") onSave();
            if (event.key === "Escape") onCancel();
        };
        save.addEventListener("click", onSave);
        cancel.addEventListener("click", onCancel);
        input.addEventListener("keydown", onKey);
    });
};

// Why the token dialog opens after an answer of `status` (401 or 403), in words for a person: the
// server's own text (`detail`) is written for programs that send the header it names.
Studio.tokenReason = function (status, detail) {
    if (status === 403) return "This token is not allowed to do that (" + detail + "). Whoever runs the server can give you one that is.";
    if (Studio.token()) return "This server does not know that token. Check that it was pasted whole, or ask for a new one.";
    return "This server shows its realms only to people who have a token.";
};

// --- requests -------------------------------------------------------------------------------------

// An answer that is not a success: its status and, for application/problem+json, the problem.
class ApiError extends Error {
    constructor(status, problem, text) {
        super(problem && problem.detail ? problem.detail : (text || "HTTP " + status));
        this.status = status;
        this.problem = problem;
    }
}
Studio.ApiError = ApiError;

Studio.headers = function (extra) {
    const headers = Object.assign({}, extra || {});
    const token = Studio.token();
    if (token) headers["Authorization"] = "Bearer " + token;
    return headers;
};

// Turns a failed answer into an ApiError.
Studio.failure = async function (response) {
    const text = await response.text();
    let problem = null;
    if ((response.headers.get("Content-Type") || "").includes("json")) {
        try { problem = JSON.parse(text); } catch (_) { problem = null; }
    }
    return new ApiError(response.status, problem, text);
};

// fetch() with the token; on 401 or 403 asks for a token and tries again once it is given.
Studio.request = async function (path, options) {
    for (;;) {
        const init = Object.assign({}, options || {});
        init.headers = Studio.headers(init.headers);
        const response = await fetch(path, init);
        if (response.ok || response.status === 304) return response;
        const error = await Studio.failure(response);
        if ((response.status === 401 || response.status === 403) && !(options && options.noRetry)) {
            if (await Studio.askToken(Studio.tokenReason(response.status, error.message))) continue;
        }
        throw error;
    }
};

Studio.getJSON = async function (path) {
    const response = await Studio.request(path, {headers: {"Accept": "application/json"}});
    return Studio.parseJSON(await response.text());
};

// JSON text parsed with every integer kept exact: Kura's ints are 64-bit, and one beyond 2^53
// (a key, say) would otherwise come back as another number. Those become BigInts.
Studio.parseJSON = function (text) {
    return JSON.parse(text, (key, value, context) => {
        if (typeof value !== "number" || Number.isSafeInteger(value) || !context || typeof context.source !== "string") return value;
        return /^-?[0-9]+$/.test(context.source) ? BigInt(context.source) : value;
    });
};

// --- schemas --------------------------------------------------------------------------------------

// A property's declaration ("list<Dog>", "string?", {type: ...}, {linkingObjects: "T.p"}) read:
// {collection: null|"list"|"set"|"map"|"backlinks", base, optional, scalar, text}.
Studio.parseType = function (declaration) {
    if (declaration && typeof declaration === "object") {
        if (declaration.linkingObjects) {
            const [origin, property] = String(declaration.linkingObjects).split(".");
            return {collection: "backlinks", base: origin, via: property, optional: false, scalar: false,
                text: "linkingObjects " + declaration.linkingObjects};
        }
        declaration = declaration.type;
    }
    const text = String(declaration === undefined || declaration === null ? "" : declaration).trim();
    let base = text;
    let collection = null;
    const match = /^(list|set|map)\s*<\s*(.+?)\s*>$/.exec(text);
    if (match) { collection = match[1]; base = match[2]; }
    let optional = false;
    if (base.endsWith("?")) { optional = true; base = base.slice(0, -1).trim(); }
    return {collection, base, optional, scalar: Studio.scalars.has(base), text};
};

// The schema of a realm, read once: {version, types: [{name, primaryKey, embedded, properties:
// [{name, type}]}], byName}.
Studio.schemas = new Map();
Studio.schema = async function (realm) {
    if (!Studio.schemas.has(realm)) {
        const loading = Studio.getJSON(Studio.realmPath(realm, "schema")).then((json) => {
            const types = Object.entries(json.types || {}).map(([name, body]) => ({
                name,
                primaryKey: body.primaryKey || null,
                embedded: body.embedded === true,
                properties: Object.entries(body.properties || {}).map(([property, declaration]) => ({
                    name: property, type: Studio.parseType(declaration),
                    // What the server gives a new object that leaves the property out.
                    autoIncrement: declaration !== null && typeof declaration === "object" && declaration.autoIncrement === true,
                    hasDefault: declaration !== null && typeof declaration === "object" && declaration.default !== undefined,
                })),
            }));
            return {version: json.schemaVersion, types, byName: new Map(types.map((type) => [type.name, type]))};
        });
        loading.catch(() => Studio.schemas.delete(realm));
        Studio.schemas.set(realm, loading);
    }
    return Studio.schemas.get(realm);
};

// A value as a literal of a predicate: numbers as they are, strings quoted, typed wrappers as
// oid(...) and uuid(...).
Studio.literal = function (value) {
    if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
    if (value && typeof value === "object") {
        if (value.$oid) return "oid(" + value.$oid + ")";
        if (value.$uuid) return "uuid(" + value.$uuid + ")";
    }
    return "'" + String(value).replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";
};

// The primary key `value` of an object of `type` as a predicate literal: export writes a uuid key
// as a plain string, which a predicate reads as a string unless it is written uuid(...).
Studio.keyLiteral = function (type, value) {
    const key = type.properties.find((property) => property.name === type.primaryKey);
    const base = key ? key.type.base : null;
    if (base === "uuid" && typeof value === "string") return "uuid(" + value + ")";
    if (base === "objectId" && typeof value === "string") return "oid(" + value + ")";
    return Studio.literal(value);
};

// A primary key value as the text of a URL's {key}.
Studio.keyText = function (value) {
    if (value && typeof value === "object") return String(value.$oid || value.$uuid || JSON.stringify(value));
    return String(value);
};

// The object an API URL (/v1/realms/R/objects/T/K, as "urls", "$url" and the backlinks route give
// them) names: {realm, type, key, hash}, hash being its page in Studio; null for any other URL.
Studio.objectAddress = function (url) {
    const match = /^\/v1\/realms\/([^/?#]+)\/objects\/([^/?#]+)\/([^/?#]+)$/.exec(typeof url === "string" ? url : "");
    if (!match) return null;
    try {
        const [realm, type, key] = match.slice(1).map(decodeURIComponent);
        return {realm, type, key, hash: Studio.link(["r", realm, "t", type, "k", key])};
    } catch (_) {
        return null;
    }
};

// The URL of each object a page of documents names with "$id": nested ones carry theirs in
// "$url" (asked for with nestedUrls=true), top-level ones have it in `urls`. A "$ref" to one of
// them is then a link too.
Studio.addressesOf = function (documents, urls) {
    const addresses = new Map();
    const pending = [];
    documents.forEach((document, index) => {
        if (document && typeof document === "object" && document.$id !== undefined && urls && urls[index]) {
            addresses.set(String(document.$id), urls[index]);
        }
        pending.push(document);
    });
    // A stack, not recursion: the documents come from the server, but need not be shallow.
    while (pending.length > 0) {
        const value = pending.pop();
        if (!value || typeof value !== "object") continue;
        if (!Array.isArray(value) && value.$id !== undefined && typeof value.$url === "string") addresses.set(String(value.$id), value.$url);
        for (const item of Array.isArray(value) ? value : Object.values(value)) if (item && typeof item === "object") pending.push(item);
    }
    return addresses;
};

// --- routes ---------------------------------------------------------------------------------------

// The location's route: {parts: [...decoded path parts], query: URLSearchParams}.
Studio.route = function () {
    const hash = location.hash.replace(/^#\/?/, "");
    const [path, search] = hash.split("?");
    const parts = path.split("/").filter((part) => part !== "").map(decodeURIComponent);
    return {parts, query: new URLSearchParams(search || "")};
};

// A route's hash: Studio.link(["r", realm, "t", type], {where: "..."}).
Studio.link = function (parts, query) {
    let hash = "#/" + parts.map(encodeURIComponent).join("/");
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query || {})) if (value) search.set(name, value);
    const text = search.toString();
    return text ? hash + "?" + text : hash;
};

// A message box for an error or a note.
Studio.message = function (kind, text) {
    return Studio.el("p", {class: "message " + kind, role: kind === "error" ? "alert" : "status"}, text);
};

Studio.formatCount = function (n) { return Number(n).toLocaleString("en-US"); };

Studio.formatBytes = function (bytes) {
    if (bytes < 1024) return bytes + " B";
    const units = ["KiB", "MiB", "GiB", "TiB"];
    let value = bytes / 1024;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
    return value.toFixed(value < 10 ? 1 : 0) + " " + units[unit];
};