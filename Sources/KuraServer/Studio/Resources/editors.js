// Kura Studio: an input for a value of each type of the schema: scalars, optional values, embedded
// objects, lists, sets, maps, links and mixed values. Each editor reads back the JSON value the
// object API takes, and records which input stands for which path of the document, so that a
// refusal naming `$.scores.x` marks that input.
"use strict";

// What an editor reads when the person gave nothing (a new object's empty field): left out.
Studio.omit = Symbol("omit");

// A value the page itself cannot send (text that is not JSON): where and why.
class InputError extends Error {
    constructor(path, message) { super(message); this.path = path; }
}
Studio.InputError = InputError;

// Whether a property of type `type` can be edited in place: a link to a type without a primary
// key cannot be named in a document (only nested, which would make a new object), so such
// properties, and embedded objects holding one, are edited on the linked object's own page.
Studio.editable = function (type, schema, seen) {
    if (type.collection === "backlinks") return false;
    if (type.scalar) return true;
    const target = schema.byName.get(type.base);
    if (!target) return false;
    if (!target.embedded) return target.primaryKey !== null;
    const visited = seen || new Set();
    if (visited.has(target.name)) return true;
    visited.add(target.name);
    return target.properties.every((property) => property.type.collection === "backlinks" || Studio.editable(property.type, schema, visited));
};

// The text an input shows for a stored scalar `value` of type `base`.
Studio.inputText = function (value, base) {
    if (value === null || value === undefined) return "";
    if (typeof value === "object") {
        if (value.$date !== undefined) return String(value.$date);
        if (value.$numberDecimal !== undefined) return String(value.$numberDecimal);
        if (value.$oid !== undefined) return String(value.$oid);
        if (value.$uuid !== undefined) return String(value.$uuid);
        if (value.$numberLong !== undefined) return String(value.$numberLong);
        if (value.$binary !== undefined) return String(value.$binary.base64 || "");
    }
    if (base === "mixed") return Studio.jsonText(value);
    return Object.is(value, -0) ? "-0" : String(value);
};

// The value the API takes for `text` typed into a field of type `base`. A number that does not
// parse is sent as text: the server's strict check then says what was wrong, at the field.
Studio.wireValue = function (text, base, path) {
    switch (base) {
        case "int": return /^[+-]?[0-9]+$/.test(text.trim()) ? new Studio.RawNumber(text.trim().replace(/^\+/, "")) : text;
        case "float": case "double":
            return /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text.trim()) ? new Studio.RawNumber(text.trim()) : text;
        case "date": return {"$date": text.trim()};
        case "decimal": return {"$numberDecimal": text.trim()};
        case "objectId": return {"$oid": text.trim()};
        case "uuid": return text.trim();
        case "data": return {"$binary": {"base64": text.trim(), "subType": "00"}};
        case "mixed":
            try { return Studio.parseJSON(text); } catch (error) {
                throw new InputError(path, "This is not JSON (" + error.message + "). Write text in quotes, such as \"red\".");
            }
        default: return text;
    }
};

Studio.placeholders = {int: "a whole number", float: "a number", double: "a number", date: "2024-03-01T09:30:00.000Z",
    decimal: "such as 12.50", objectId: "24 hexadecimal digits", uuid: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
    data: "base64", mixed: "JSON, such as \"text\", 3 or {\"a\": 1}", string: ""};

// An editor of a value of `type`: {node, read(path, fields), focus()}. `value` is the stored value
// (undefined for a new object's field); `options.label` names the input for screen readers,
// `options.creating` makes an empty field read as left out.
Studio.editor = function (type, value, ctx, options) {
    if (type.collection === "list" || type.collection === "set") return Studio.listEditor(type, value, ctx, options);
    if (type.collection === "map") return Studio.mapEditor(type, value, ctx, options);
    const target = type.scalar ? null : ctx.schema.byName.get(type.base);
    if (target && target.embedded) return Studio.embeddedEditor(type, target, value, ctx, options);
    if (target) return Studio.linkEditor(type, target, value, ctx, options);
    return Studio.scalarEditor(type, value, options);
};

// One input for a scalar; an optional one has a "null" box beside it, cleared by typing.
Studio.scalarEditor = function (type, value, options) {
    const el = Studio.el;
    const id = Studio.uniqueId("field");
    let input;
    if (type.base === "bool") {
        input = el("select", {id, "aria-label": options.label},
            options.creating ? el("option", {value: ""}, "(not set)") : null,
            el("option", {value: "true", selected: value === true}, "true"), el("option", {value: "false", selected: value === false}, "false"));
    } else if (type.base === "mixed" || (type.base === "string" && typeof value === "string" && value.includes("\n"))) {
        input = el("textarea", {id, rows: 3, spellcheck: "false", "aria-label": options.label, placeholder: Studio.placeholders[type.base]});
        input.value = Studio.inputText(value, type.base);
    } else {
        input = el("input", {id, type: "text", spellcheck: "false", autocomplete: "off", "aria-label": options.label,
            placeholder: Studio.placeholders[type.base] || "", inputmode: type.base === "int" ? "numeric" : null});
        input.value = Studio.inputText(value, type.base);
    }
    const nullable = type.optional && !options.creating;
    const nullBox = nullable ? el("input", {type: "checkbox", id: id + "-null", checked: value === null, "aria-label": options.label + " is null"}) : null;
    if (nullBox) input.addEventListener("input", () => { nullBox.checked = false; });
    const node = el("span", {class: "scalar-editor"}, input,
        nullBox ? el("label", {class: "null-toggle", for: id + "-null"}, nullBox, "null") : null);
    return {
        node,
        input,
        focus: () => input.focus(),
        read(path, fields) {
            fields.set(path, input);
            if (nullBox && nullBox.checked) return null;
            const text = input.value;
            if (options.creating && text === "") return Studio.omit;
            if (type.base === "bool") return text === "true";
            return Studio.wireValue(text, type.base, path);
        },
    };
};

// An embedded object: an editor per property, in a box headed by its type.
Studio.embeddedEditor = function (type, target, value, ctx, options) {
    const el = Studio.el;
    const present = value && typeof value === "object";
    const properties = target.properties.filter((property) => property.type.collection !== "backlinks");
    const parts = properties.map((property) => ({property, editor: Studio.editor(property.type, present ? value[property.name] : undefined, ctx,
        {label: options.label + " " + property.name, creating: options.creating || !present})}));
    const nullBox = type.optional && !options.creating ? el("input", {type: "checkbox", id: Studio.uniqueId("null"), checked: !present, "aria-label": options.label + " is null"}) : null;
    const node = el("fieldset", {class: "embedded-editor"}, el("legend", {}, target.name + " (embedded)"),
        parts.map(({property, editor}) => el("div", {class: "sub-field"},
            el("span", {class: "name", "aria-hidden": "true"}, property.name), editor.node)),
        nullBox ? el("label", {class: "null-toggle", for: nullBox.id}, nullBox, "null (no " + target.name + ")") : null);
    if (nullBox) node.addEventListener("input", (event) => { if (event.target !== nullBox) nullBox.checked = false; });
    return {
        node,
        input: parts.length ? parts[0].editor.input : null,
        focus: () => { if (parts.length) parts[0].editor.focus(); },
        read(path, fields) {
            fields.set(path, parts.length ? parts[0].editor.input : node);
            if (nullBox && nullBox.checked) return null;
            const document = {};
            for (const {property, editor} of parts) {
                const item = editor.read(path + "." + property.name, fields);
                if (item !== Studio.omit) document[property.name] = item;
            }
            if (options.creating && Object.keys(document).length === 0) return Studio.omit;
            return document;
        },
    };
};

// A link to an object with a primary key: the key it holds, a button that opens the chooser of
// the target's objects, and, for an optional link, one that clears it.
Studio.linkEditor = function (type, target, value, ctx, options) {
    const el = Studio.el;
    let chosen = value === undefined ? null : value;
    const shown = el("span", {class: "link-target"});
    const show = () => shown.replaceChildren(chosen === null ? el("span", {class: "null"}, "null") : target.name + " " + Studio.keyText(chosen));
    show();
    const choose = el("button", {type: "button", class: "choose", "aria-label": "choose " + options.label}, "Choose…");
    const clear = type.optional ? el("button", {type: "button", class: "clear", "aria-label": "clear " + options.label}, "Clear") : null;
    choose.addEventListener("click", async () => {
        const picked = await Studio.chooseObject(ctx.realm, ctx.schema, target, options.label);
        if (picked !== undefined) { chosen = picked; show(); choose.dispatchEvent(new Event("input", {bubbles: true})); }
    });
    if (clear) clear.addEventListener("click", () => { chosen = null; show(); clear.dispatchEvent(new Event("input", {bubbles: true})); });
    return {
        node: el("span", {class: "link-editor"}, shown, choose, clear),
        input: choose,
        focus: () => choose.focus(),
        read(path, fields) {
            fields.set(path, choose);
            if (options.creating && chosen === null) return Studio.omit;
            return chosen;
        },
    };
};

// A list or set: an editor per element, each with a Remove button, and an Add button.
Studio.listEditor = function (type, value, ctx, options) {
    const el = Studio.el;
    const element = Object.assign({}, type, {collection: null, optional: type.optional});
    const items = el("ol", {class: "list-editor " + type.collection});
    const rows = [];
    const noun = type.collection === "set" ? "element" : "item";
    const renumber = () => rows.forEach((row, index) => {
        row.remove.setAttribute("aria-label", "remove " + options.label + " " + noun + " " + (index + 1));
        const name = options.label + " " + noun + " " + (index + 1);
        if (row.editor.node.classList.contains("scalar-editor")) row.editor.input.setAttribute("aria-label", name);
        if (row.editor.node.classList.contains("link-editor")) row.editor.input.setAttribute("aria-label", "choose " + name);
        row.number.textContent = String(index + 1);
    });
    const add = (itemValue) => {
        const editor = Studio.editor(element, itemValue, ctx, {label: options.label + " " + noun, creating: false});
        const row = {editor, remove: el("button", {type: "button", class: "remove"}, "Remove"), number: el("span", {class: "number", "aria-hidden": "true"})};
        row.node = el("li", {}, row.number, editor.node, row.remove);
        row.remove.addEventListener("click", () => {
            const at = rows.indexOf(row);
            rows.splice(at, 1);
            row.node.remove();
            renumber();
            const next = rows[at] || rows[at - 1];
            if (next) next.remove.focus(); else addButton.focus();
        });
        rows.push(row);
        items.append(row.node);
        renumber();
        return editor;
    };
    const blank = element.scalar ? (element.base === "bool" ? false : element.base === "string" ? "" : undefined) : undefined;
    const addButton = el("button", {type: "button", class: "add", "aria-label": "add " + options.label + " " + noun}, "Add " + noun);
    addButton.addEventListener("click", () => add(blank).focus());
    for (const item of Array.isArray(value) ? value : []) add(item);
    return {
        node: el("div", {class: "collection-editor"}, items, addButton),
        input: addButton,
        focus: () => (rows.length ? rows[0].editor.focus() : addButton.focus()),
        read(path, fields) {
            fields.set(path, addButton);
            const read = rows.map((row, index) => row.editor.read(path + "[" + index + "]", fields));
            if (options.creating && read.length === 0) return Studio.omit;
            return read.map((item) => (item === Studio.omit ? null : item));
        },
    };
};

// A map: a key and a value editor per entry, each with a Remove button, and an Add button.
Studio.mapEditor = function (type, value, ctx, options) {
    const el = Studio.el;
    const element = Object.assign({}, type, {collection: null});
    const entries = el("div", {class: "map-editor"});
    const rows = [];
    const add = (key, itemValue) => {
        const keyInput = el("input", {type: "text", class: "map-key", spellcheck: "false", autocomplete: "off", "aria-label": options.label + " key"});
        keyInput.value = key;
        const editor = Studio.editor(element, itemValue, ctx, {label: options.label + " value", creating: false});
        const row = {keyInput, editor, remove: el("button", {type: "button", class: "remove"}, "Remove")};
        const relabel = () => {
            const shown = keyInput.value || "(new key)";
            row.remove.setAttribute("aria-label", "remove " + options.label + " entry " + shown);
            if (editor.node.classList.contains("scalar-editor")) editor.input.setAttribute("aria-label", options.label + " value for " + shown);
        };
        keyInput.addEventListener("input", relabel);
        relabel();
        row.node = el("div", {class: "map-entry"}, keyInput, el("span", {class: "arrow", "aria-hidden": "true"}, "→"), editor.node, row.remove);
        row.remove.addEventListener("click", () => {
            const at = rows.indexOf(row);
            rows.splice(at, 1);
            row.node.remove();
            const next = rows[at] || rows[at - 1];
            if (next) next.remove.focus(); else addButton.focus();
        });
        rows.push(row);
        entries.append(row.node);
        return keyInput;
    };
    const blank = element.scalar ? (element.base === "bool" ? false : element.base === "string" ? "" : undefined) : undefined;
    const addButton = el("button", {type: "button", class: "add", "aria-label": "add " + options.label + " entry"}, "Add entry");
    addButton.addEventListener("click", () => add("", blank).focus());
    if (value && typeof value === "object" && !Array.isArray(value)) for (const [key, item] of Object.entries(value)) add(key, item);
    return {
        node: el("div", {class: "collection-editor"}, entries, addButton),
        input: addButton,
        focus: () => (rows.length ? rows[0].keyInput.focus() : addButton.focus()),
        read(path, fields) {
            fields.set(path, addButton);
            const document = {};
            for (const row of rows) {
                const key = row.keyInput.value;
                fields.set(path + "." + key, row.keyInput);
                if (key === "") throw new InputError(path + "." + key, "Each entry needs a key.");
                if (Object.prototype.hasOwnProperty.call(document, key)) throw new InputError(path + "." + key, "The key '" + key + "' is given twice.");
                const item = row.editor.read(path + "." + key, fields);
                document[key] = item === Studio.omit ? null : item;
            }
            if (options.creating && rows.length === 0) return Studio.omit;
            return document;
        },
    };
};

// Marks the input the refusal `error` ({path, message, words}) names among `fields` (path ->
// input; the nearest enclosing path when no input has that exact one) with the message below it.
// Returns the marked input, or null when the path names none of them.
Studio.markField = function (fields, error) {
    const el = Studio.el;
    let path = error.path;
    while (path && !fields.has(path)) {
        const cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
        path = cut > 0 ? path.slice(0, cut) : "";
    }
    const input = path ? fields.get(path) : null;
    if (!input) return null;
    const id = Studio.uniqueId("field-error");
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", id);
    input.dataset.path = error.path;
    const note = el("p", {class: "field-error", id, role: "alert"}, error.words,
        error.message ? [" ", el("span", {class: "server-says"}, "(" + error.message + ")")] : null);
    // Below the whole row of a list item, map entry or embedded field, so that its Remove button stays beside it.
    const row = input.closest("ol.list-editor > li, .map-entry, .sub-field");
    if (row) row.append(note);
    else (input.closest(".scalar-editor, .link-editor") || input).insertAdjacentElement("afterend", note);
    return input;
};

// Clears every mark Studio.markField left inside `root`.
Studio.clearMarks = function (root) {
    for (const note of root.querySelectorAll(".field-error")) note.remove();
    for (const input of root.querySelectorAll("[aria-invalid]")) {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
        delete input.dataset.path;
    }
};
