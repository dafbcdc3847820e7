// Kura Studio: writes through the object API: documents as exact JSON text, If-Match with the
// ETag the page was read with, and a refusal turned into words for a person.
"use strict";

// A number exactly as typed ("9223372036854775808", "1e400"): sent as it is, so that the server,
// not the browser's rounding, judges whether it fits.
class RawNumber {
    constructor(text) { this.text = text; }
}
Studio.RawNumber = RawNumber;

// JSON text of a value read from the page or from Studio.parseJSON: BigInts and raw numbers keep
// their digits, -0 stays negative.
Studio.jsonText = function (value) {
    if (value instanceof RawNumber) return value.text;
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "number") return Object.is(value, -0) ? "-0.0" : JSON.stringify(value);
    if (Array.isArray(value)) return "[" + value.map(Studio.jsonText).join(",") + "]";
    if (value && typeof value === "object") {
        return "{" + Object.entries(value).map(([key, item]) => JSON.stringify(key) + ":" + Studio.jsonText(item)).join(",") + "}";
    }
    return JSON.stringify(value === undefined ? null : value);
};

// The token of this tab was refused a write (403): Studio then offers no editing with it.
Studio.readOnly = function () {
    const refused = sessionStorage.getItem("kura.readOnly");
    return refused !== null && refused === Studio.token();
};

// A write: `method` on `path` with the document `body` (or none), `If-Match: etag` when given.
// Resolves {status, etag, location, document}; throws an ApiError. A 401 asks for a token and
// tries again; a 403 is not retried but shown where the write was asked for.
Studio.write = async function (method, path, body, etag) {
    const headers = {"Accept": "application/json"};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (etag) headers["If-Match"] = etag;
    for (;;) {
        const response = await fetch(path, {method, headers: Studio.headers(headers), body: body === undefined ? undefined : Studio.jsonText(body)});
        if (response.ok) {
            const text = await response.text();
            return {status: response.status, etag: response.headers.get("ETag"), location: response.headers.get("Location"),
                document: text ? Studio.parseJSON(text) : null};
        }
        const error = await Studio.failure(response);
        if (response.status === 401 && await Studio.askToken(Studio.tokenReason(401, error.message))) continue;
        if (response.status === 403 && /has scope read/.test(error.message)) sessionStorage.setItem("kura.readOnly", Studio.token());
        throw error;
    }
};

// What went wrong with a write, for the person who asked for it: {kind, text, fields}, kind one
// of "conflict", "forbidden", "invalid", "other"; fields lists {path, message, words} for errors
// that name a value of the document (422 `errors`, or a 4xx detail starting with a path).
Studio.refusal = function (error, what) {
    if (error.status === 412) {
        return {kind: "conflict", fields: [], text: "Not saved: someone else changed " + what + " after you opened it. "
            + "Nothing was overwritten; your edit is still here. Show the current version to see what is stored now, then make your change again."};
    }
    if (error.status === 403) {
        const readOnly = /has scope read/.test(error.message);
        return {kind: "forbidden", fields: [], text: (readOnly ? "Not saved: this token can only read, so Studio cannot change objects with it. "
            + "Whoever runs the server can give you a token made with --scope write; the Token button above uses another one."
            : "Not saved: this token is not allowed to change this realm.") + " (The server said: " + error.message + ")"};
    }
    const fields = [];
    const listed = error.problem && Array.isArray(error.problem.errors) ? error.problem.errors : [];
    for (const item of listed) {
        if (!item || typeof item.path !== "string") continue;
        const message = Studio.serverText(String(item.message || item.path));
        // A missing property is reported at the object that lacks it; its input is one level down.
        const missing = /missing required property '([^']+)'/.exec(message);
        fields.push(Studio.fieldError(missing ? item.path + "." + missing[1] : item.path, message));
    }
    if (fields.length === 0) {
        const match = /(?:^|: )(\$[^:\s]*): (.*)$/.exec(error.message);
        if (match && error.status >= 400 && error.status < 500) fields.push(Studio.fieldError(match[1], match[2]));
    }
    if (fields.length > 0) return {kind: "invalid", fields, text: "Not saved: the server refused a value. Nothing was written."};
    if (error.status === 404) return {kind: "other", fields, text: "Not saved: " + what + " is no longer there (" + error.message + ")."};
    return {kind: "other", fields, text: "Not saved: " + error.message};
};

// The server's message without the place in the body it starts with ("body:1:10: error: $.age: ").
Studio.serverText = function (message) {
    return message.replace(/^body:[0-9]+:[0-9]+: error: /, "").replace(/^\$\S*: /, "");
};

// One refused value: where it is (`$.age`), the server's message, and what it means in words.
Studio.fieldError = function (path, message) {
    const typeWords = {int: "a whole number", double: "a number", float: "a number", bool: "true or false", string: "text",
        date: "a date such as 2024-03-01T09:30:00Z", decimal: "a decimal number such as 12.50", objectId: "an ObjectId of 24 hexadecimal digits",
        uuid: "a UUID such as 6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f", data: "base64 data"};
    let words = "The server refused this value.";
    const expected = /expected (\w+)/.exec(message);
    if (/does not fit|out of [\w-]* ?range|too (large|big|small)|not finite/.test(message)) words = "This number is too large or too small for this field.";
    else if (/ISO-8601/.test(message)) words = "This field needs " + typeWords.date + ".";
    else if (/hexadecimal digits/.test(message)) words = "This field needs " + typeWords.objectId + ".";
    else if (/missing|required/.test(message)) words = "This field needs a value.";
    else if (/no object|unresolved|does not exist|no \w+ with (primary )?key|links to no/i.test(message)) words = "There is no object with that key to link to.";
    else if (expected && typeWords[expected[1]]) words = "This field needs " + typeWords[expected[1]] + ".";
    return {path, message, words};
};
