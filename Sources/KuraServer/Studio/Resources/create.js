// Kura Studio: a new object from a form built from the schema, created with POST …/objects/{type}.
"use strict";

// What a new object's property needs, in words: the primary key, required, or what the server
// gives it when the form leaves it empty.
Studio.need = function (type, property, schema) {
    const collection = property.type.collection !== null;
    if (property.name === type.primaryKey) return property.autoIncrement ? "primary key · empty: the next number" : "primary key · required";
    if (property.autoIncrement) return "empty: the next number";
    if (property.hasDefault) return "empty: its default";
    if (collection) return "empty: none";
    if (property.type.optional || property.type.base === "mixed") return "optional";
    const target = property.type.scalar ? null : schema.byName.get(property.type.base);
    if (target && !target.embedded) return "optional";
    return "required";
};

// #/r/R/t/T/new: a field per property, labelled with its name, type and need; Create posts the
// document of the fields given.
Studio.showCreate = async function (view, realm, typeName) {
    const el = Studio.el;
    const schema = await Studio.schema(realm);
    const type = Studio.typeOf(schema, realm, typeName);
    view.replaceChildren(el("h1", {}, "New " + typeName, el("span", {class: "sub"}, " in " + realm)),
        el("p", {class: "meta"}, el("a", {href: Studio.link(["r", realm, "t", typeName])}, "all " + typeName + " objects")));
    if (type.embedded) { view.append(Studio.message("note", typeName + " is embedded: it is created inside the object that holds it.")); return; }
    if (Studio.readOnly()) { view.append(Studio.message("note", "This token can only read: Studio creates no objects with it. The Token button above uses another one.")); return; }
    const ctx = {realm, schema};
    const parts = type.properties.filter((property) => property.type.collection !== "backlinks" && Studio.editable(property.type, schema))
        .map((property) => ({property, editor: Studio.editor(property.type, undefined, ctx, {label: property.name, creating: true})}));
    const left = type.properties.filter((property) => property.type.collection !== "backlinks" && !Studio.editable(property.type, schema));
    const rows = parts.map(({property, editor}) => {
        const need = Studio.need(type, property, schema);
        const labelId = Studio.uniqueId("label");
        // A single input takes the visible label; an editor of several inputs is a group named by it.
        const single = editor.node.classList.contains("scalar-editor");
        if (single) {
            editor.input.removeAttribute("aria-label");
            if (need.endsWith("required")) editor.input.setAttribute("aria-required", "true");
        }
        const label = single ? el("label", {for: editor.input.id, id: labelId}, property.name) : el("span", {id: labelId, class: "label"}, property.name);
        return el("div", {class: "create-field", "data-property": property.name},
            el("div", {class: "create-label"}, label, el("span", {class: "type-text"}, property.type.text + " · " + need)),
            single ? editor.node : el("div", {role: "group", "aria-labelledby": labelId}, editor.node));
    });
    const status = el("div", {class: "edit-status"});
    const create = el("button", {type: "button", id: "create-save", class: "primary"}, "Create " + typeName);
    const cancel = el("a", {href: Studio.link(["r", realm, "t", typeName]), class: "button-link", id: "create-cancel"}, "Cancel");
    const form = el("form", {class: "create-form", id: "create-form", "aria-label": "new " + typeName}, rows,
        left.length ? el("p", {class: "note"}, "Links to objects without a primary key (" + left.map((property) => property.name).join(", ")
            + ") are set on those objects' pages, after creating.") : null,
        status, el("div", {class: "actions"}, create, cancel));
    view.append(form);
    let saving = false;
    const submit = async () => {
        if (saving) return;
        const read = Studio.readForm(form, status, "Not created", (fields) => {
            const document = {};
            for (const {property, editor} of parts) {
                const value = editor.read("$." + property.name, fields);
                if (value !== Studio.omit) document[property.name] = value;
            }
            return document;
        });
        if (!read) return;
        const {value: document, fields} = read;
        saving = true;
        create.disabled = true;
        try {
            const written = await Studio.write("POST", Studio.realmPath(realm, "objects", typeName), document);
            const address = Studio.objectAddress(written.location);
            Studio.flash = {text: "Created " + (address ? address.type + " " + address.key : typeName) + ".", focus: "h1"};
            location.hash = address ? address.hash : Studio.link(["r", realm, "t", typeName]);
        } catch (error) {
            if (!(error instanceof Studio.ApiError)) throw error;
            const refusal = Studio.refusal(error, "this " + typeName);
            if (error.status === 409 && type.primaryKey) {
                refusal.kind = "invalid";
                const message = Studio.serverText(error.message);
                refusal.text = "Not created: " + message + ".";
                refusal.fields = [{path: "$." + type.primaryKey, message, words: "An object with this key exists already."}];
            } else if (refusal.kind === "invalid") refusal.text = "Not created: the server refused a value. Nothing was written.";
            else refusal.text = refusal.text.replace(/^Not saved/, "Not created");
            Studio.showRefusal(status, fields, refusal);
        } finally {
            saving = false;
            create.disabled = false;
        }
    };
    create.addEventListener("click", submit);
    form.addEventListener("submit", (event) => { event.preventDefault(); submit(); });
    // Escape does not leave the form: one key would lose everything typed. Cancel does.
    form.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && event.target.matches("input:not([type=checkbox]), select")) { event.preventDefault(); submit(); }
    });
    if (parts.length) parts[0].editor.focus();
};
