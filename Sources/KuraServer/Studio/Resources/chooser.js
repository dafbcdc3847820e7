// Kura Studio: the chooser of a link's target: the target type's objects in pages, searched by
// their text and key through the object API's `where`.
"use strict";

Studio.chooserPageSize = 10;

// The predicate finding objects of `type` whose text properties contain `text` (ignoring case),
// or whose primary key is `text`; empty for no search.
Studio.searchPredicate = function (type, text) {
    const wanted = text.trim();
    if (!wanted) return "";
    const terms = type.properties.filter((property) => property.type.collection === null && property.type.base === "string")
        .map((property) => property.name + " CONTAINS[c] " + Studio.literal(wanted));
    const key = type.properties.find((property) => property.name === type.primaryKey);
    if (key && key.type.base === "int" && /^-?[0-9]+$/.test(wanted)) terms.push(type.primaryKey + " == " + wanted);
    if (key && key.type.base === "objectId" && /^[0-9a-fA-F]{24}$/.test(wanted)) terms.push(type.primaryKey + " == oid(" + wanted + ")");
    if (key && key.type.base === "uuid" && /^[0-9a-fA-F-]{36}$/.test(wanted)) terms.push(type.primaryKey + " == uuid(" + wanted + ")");
    return terms.length ? terms.join(" OR ") : "FALSEPREDICATE";
};

// A line naming one object of `type` in the chooser: its key and its first text values.
Studio.choiceText = function (type, document) {
    const texts = type.properties.filter((property) => property.name !== type.primaryKey && property.type.collection === null
        && property.type.base === "string" && typeof document[property.name] === "string")
        .slice(0, 2).map((property) => document[property.name]);
    return type.name + " " + Studio.keyText(document[type.primaryKey]) + (texts.length ? " · " + texts.join(" · ") : "");
};

// Opens the chooser of an object of `type` for the link `label`; resolves the chosen object's
// primary key as its document holds it, or undefined when the person cancels.
Studio.chooseObject = function (realm, schema, type, label) {
    const el = Studio.el;
    return new Promise((resolve) => {
        let after = "";
        const trail = [];
        const search = el("input", {type: "search", id: "chooser-search", autocomplete: "off", spellcheck: "false",
            placeholder: "text or key", "aria-label": "search " + type.name + " objects"});
        const list = el("ul", {class: "choices", id: "chooser-list", "aria-label": type.name + " objects"});
        const status = el("p", {class: "note", id: "chooser-status", role: "status"});
        const previous = el("button", {type: "button", id: "chooser-previous"}, "Previous");
        const next = el("button", {type: "button", id: "chooser-next"}, "Next");
        const cancel = el("button", {type: "button", id: "chooser-cancel"}, "Cancel");
        let dialog = null;
        const finish = (value) => { dialog.close(); resolve(value); };
        const load = async () => {
            const where = Studio.searchPredicate(type, search.value);
            status.textContent = "Loading…";
            let page;
            try {
                page = await Studio.getJSON(Studio.realmPath(realm, "objects", type.name)
                    + Studio.query({limit: Studio.chooserPageSize, where, sort: type.primaryKey, after}));
            } catch (error) {
                status.textContent = error.message;
                return;
            }
            list.replaceChildren(...page.objects.map((document) => el("li", {},
                el("button", {type: "button", class: "choice", onclick: () => finish(document[type.primaryKey])}, Studio.choiceText(type, document)))));
            const first = trail.length * Studio.chooserPageSize + 1;
            status.textContent = page.objects.length === 0 ? "No " + type.name + " objects" + (where ? " match" : "")
                : type.name + " " + first + "–" + (first + page.objects.length - 1) + " of " + Studio.formatCount(page.count);
            previous.disabled = trail.length === 0;
            next.disabled = !page.next;
            next.dataset.after = page.next ? new URL(page.next, location.origin).searchParams.get("after") || "" : "";
        };
        let timer = null;
        search.addEventListener("input", () => {
            clearTimeout(timer);
            timer = setTimeout(() => { after = ""; trail.length = 0; load(); }, 250);
        });
        search.addEventListener("keydown", (event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            clearTimeout(timer);
            after = "";
            trail.length = 0;
            load();
        });
        previous.addEventListener("click", () => { after = trail.pop() || ""; load(); });
        next.addEventListener("click", () => { trail.push(after); after = next.dataset.after; load(); });
        cancel.addEventListener("click", () => finish(undefined));
        dialog = Studio.openDialog({
            id: "chooser", title: "Choose the " + type.name + " for " + label,
            content: [el("label", {for: "chooser-search", class: "chooser-label"}, "Search " + type.name), search, status, list],
            actions: [previous, next, cancel], onCancel: () => finish(undefined), focus: search,
        });
        load();
    });
};
