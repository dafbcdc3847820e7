// Kura Studio: an object's page edited in place, one property at a time, and the object deleted
// after its backlinks are shown. Every write is a PATCH or DELETE of the object API with the ETag
// the page was read with, so a change someone made meanwhile is never overwritten.
"use strict";

// The object the page shows: {realm, type, key, url, etag}; live.js compares its ETag with the
// stored one to tell this page's own writes from another client's.
Studio.current = null;

// A message, and the element to focus, for the next view shown (after a save or a delete).
Studio.flash = null;

// Adds editing to the object page `view`: an Edit button in each row of a property that can be
// edited (not the primary key, nor links to objects without one), and a Delete button.
Studio.enableEditing = function (view, page) {
    const el = Studio.el;
    Studio.current = page;
    const actions = view.querySelector("#object-actions");
    if (Studio.readOnly()) {
        actions.append(Studio.message("note", "This token can only read: Studio offers no editing with it. The Token button above uses another one."));
        return;
    }
    for (const row of view.querySelectorAll("table.object tr[data-property]")) {
        const property = page.type.properties.find((item) => item.name === row.dataset.property);
        if (!property) continue;
        const header = row.querySelector("th");
        if (property.name === page.type.primaryKey) {
            header.append(el("span", {class: "type-text why"}, "the key: not edited"));
            continue;
        }
        if (!Studio.editable(property.type, page.schema)) {
            const target = page.schema.byName.get(property.type.base);
            header.append(el("span", {class: "type-text why"}, target && !target.embedded
                ? "edited on each " + target.name + "'s page" : "edited on the linked objects' pages"));
            continue;
        }
        // After the name, so that it floats on the name's line.
        header.insertBefore(el("button", {type: "button", class: "edit", "data-edit": property.name, "aria-label": "edit " + property.name,
            onclick: () => Studio.editProperty(row, property, page)}, "Edit"), header.childNodes[1] || null);
    }
    actions.append(el("button", {type: "button", id: "delete-object", class: "danger", onclick: () => Studio.confirmDelete(page)}, "Delete…"));
};

// Turns the value cell of `row` into an editor of `property`, with Save and Cancel. Enter in a
// one-line input saves, Escape cancels; either way focus returns to the Edit button.
Studio.editProperty = function (row, property, page) {
    const el = Studio.el;
    const open = document.querySelector("tr.editing");
    if (open && open !== row && open.cancelEdit) open.cancelEdit();
    if (row.classList.contains("editing")) return;
    const cell = row.querySelector("td");
    const shown = Array.from(cell.childNodes);
    const editButton = row.querySelector("button.edit");
    const ctx = {realm: page.realm, schema: page.schema};
    const editor = Studio.editor(property.type, page.document[property.name], ctx, {label: property.name});
    const status = el("div", {class: "edit-status"});
    const save = el("button", {type: "button", class: "primary save", "aria-label": "save " + property.name}, "Save");
    const cancel = el("button", {type: "button", class: "cancel", "aria-label": "cancel editing " + property.name}, "Cancel");
    const form = el("div", {class: "edit-form", "data-editing": property.name}, editor.node, status, el("div", {class: "actions"}, save, cancel));
    cell.replaceChildren(form);
    row.classList.add("editing");
    editButton.hidden = true;
    const close = () => {
        row.classList.remove("editing");
        cell.replaceChildren(...shown);
        editButton.hidden = false;
        editButton.focus();
        row.cancelEdit = null;
    };
    row.cancelEdit = close;
    let saving = false;
    const submit = async () => {
        if (saving) return;
        const read = Studio.readForm(form, status, "Not saved", (fields) => editor.read("$." + property.name, fields));
        if (!read) return;
        const fields = read.fields;
        const value = read.value === Studio.omit ? null : read.value;
        saving = true;
        save.disabled = true;
        try {
            const written = await Studio.write("PATCH", page.url, {[property.name]: value}, page.etag);
            page.etag = written.etag;
            Studio.flash = {text: "Saved " + property.name + ".", focus: "button[data-edit='" + CSS.escape(property.name) + "']"};
            await Studio.show();
        } catch (error) {
            if (!(error instanceof Studio.ApiError)) throw error;
            const refusal = Studio.refusal(error, "this " + page.type.name);
            Studio.showRefusal(status, fields, refusal);
            if (refusal.kind === "conflict") await Studio.showStored(status, page, property);
        } finally {
            saving = false;
            save.disabled = false;
        }
    };
    save.addEventListener("click", submit);
    cancel.addEventListener("click", close);
    form.addEventListener("keydown", (event) => {
        if (event.key === "Escape") { event.preventDefault(); close(); }
        if (event.key === "Enter" && event.target.matches("input:not([type=checkbox]):not([type=search]), select")) { event.preventDefault(); submit(); }
    });
    editor.focus();
};

// What `read` makes of `form`'s inputs, as {value, fields} (`fields`: each input by its value's
// path, which `read` fills, for refusals to mark); or, when an input is not complete, null, with
// why shown in `status` at that input (`failed` starts the sentence: "Not saved", "Not created").
// The marks and messages of the form's last try go first.
Studio.readForm = function (form, status, failed, read) {
    Studio.clearMarks(form);
    status.replaceChildren();
    const fields = new Map();
    try {
        return {value: read(fields), fields};
    } catch (error) {
        if (!(error instanceof Studio.InputError)) throw error;
        Studio.showRefusal(status, fields, {kind: "invalid", text: failed + ": a value is not complete.",
            fields: [{path: error.path, message: "", words: error.message}]});
        return null;
    }
};

// A refusal shown in `box`: its sentence, each refused value marked at its input (or listed when
// no input stands for its path), and for a conflict a button that shows the stored version.
Studio.showRefusal = function (box, fields, refusal) {
    const el = Studio.el;
    const message = el("div", {class: "message error refusal " + refusal.kind, role: "alert"}, el("p", {}, refusal.text));
    if (refusal.kind === "conflict") {
        message.append(el("button", {type: "button", class: "reload", onclick: () => { Studio.flash = null; Studio.show(); }}, "Show the current version"));
    }
    box.replaceChildren(message);
    let first = null;
    for (const field of refusal.fields) {
        const input = Studio.markField(fields, field);
        if (!input) message.append(el("p", {}, field.path + ": " + field.words + (field.message ? " (" + field.message + ")" : "")));
        if (!first) first = input;
    }
    if (first) first.focus();
    else {
        const button = message.querySelector("button");
        if (button) button.focus();
    }
};

// Below a conflict: the value of `property` stored now, read again.
Studio.showStored = async function (box, page, property) {
    const el = Studio.el;
    try {
        const response = await Studio.request(page.url, {headers: {"Accept": "application/json"}});
        const stored = Studio.parseJSON(await response.text());
        box.querySelector(".refusal").append(el("div", {class: "stored-now"}, el("span", {class: "name"}, "Stored now: "),
            Studio.renderValue(stored[property.name], property.type, {realm: page.realm, schema: page.schema}, 1)));
    } catch (error) {
        box.querySelector(".refusal").append(el("p", {}, "The current version could not be read: " + error.message));
    }
};

// Asks before deleting the object of `page`, listing what links to it (GET …/backlinks); the
// DELETE carries the page's ETag.
Studio.confirmDelete = async function (page) {
    const el = Studio.el;
    const name = page.type.name + " " + page.key;
    const referrers = el("div", {id: "delete-backlinks"}, el("p", {class: "loading"}, "Loading what links to it…"));
    const status = el("div", {class: "edit-status"});
    const confirm = el("button", {type: "button", id: "delete-confirm", class: "danger"}, "Delete " + name);
    const cancel = el("button", {type: "button", id: "delete-cancel"}, "Cancel");
    const dialog = Studio.openDialog({
        id: "delete-dialog", title: "Delete " + name + "?",
        content: [el("p", {}, "Links to it become null and it leaves the lists, sets and maps that hold it; its embedded objects are deleted with it."),
            referrers, status],
        actions: [cancel, confirm], focus: cancel,
    });
    cancel.addEventListener("click", dialog.close);
    confirm.addEventListener("click", async () => {
        confirm.disabled = true;
        try {
            await Studio.write("DELETE", page.url, undefined, page.etag);
            Studio.ownDeletes.add(page.type.name + "\u0000" + page.key);
            dialog.close();
            Studio.flash = {text: "Deleted " + name + ".", focus: "h1"};
            location.hash = Studio.link(["r", page.realm, "t", page.type.name]);
        } catch (error) {
            if (!(error instanceof Studio.ApiError)) throw error;
            const refusal = Studio.refusal(error, "this " + page.type.name);
            if (refusal.kind === "conflict") refusal.text = "Not deleted: someone else changed " + name + " after you opened it. Show the current version, then decide again.";
            Studio.showRefusal(status, new Map(), refusal);
            const reload = status.querySelector("button.reload");
            if (reload) reload.addEventListener("click", dialog.close);
        } finally {
            confirm.disabled = false;
        }
    });
    let body;
    try {
        body = await Studio.getJSON(Studio.realmPath(page.realm, "objects", page.type.name, page.key, "backlinks") + Studio.query({limit: 20}));
    } catch (error) {
        referrers.replaceChildren(Studio.message("error", "What links to it could not be read: " + error.message));
        return;
    }
    const groups = (body.backlinks || []).filter((group) => group.count > 0);
    if (groups.length === 0) { referrers.replaceChildren(el("p", {class: "none"}, "Nothing links to " + name + ".")); return; }
    referrers.replaceChildren(el("p", {}, "These objects link to it:"), el("ul", {class: "referrers"}, groups.map((group) =>
        el("li", {}, el("span", {class: "via"}, group.type + "." + group.property + ": "),
            (group.urls || []).map((url) => {
                const address = Studio.objectAddress(url);
                return address ? address.type + " " + address.key : url;
            }).join(", "),
            group.count > (group.urls || []).length ? " and " + Studio.formatCount(group.count - group.urls.length) + " more" : ""))));
};

// Objects this page deleted, "type\0key": the change that reports them is no news to it.
Studio.ownDeletes = new Set();
