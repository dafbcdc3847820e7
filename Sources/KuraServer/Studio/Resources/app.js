// Kura Studio: the page's frame: the realms in the sidebar, the home view, and the route of the
// location's hash to the view it shows.
"use strict";

// The realms and their counts (GET /v1/realms), shown in the sidebar.
Studio.refreshRealms = async function () {
    const el = Studio.el;
    const list = document.getElementById("realm-list");
    try {
        const body = await Studio.getJSON("/v1/realms");
        const realms = body.realms || [];
        const route = Studio.route();
        list.replaceChildren(el("ul", {class: "realms"}, realms.map((realm) => el("li", {},
            el("a", {class: "realm" + (route.parts[1] === realm.name ? " current" : ""), href: Studio.link(["r", realm.name])}, realm.name),
            el("ul", {class: "types"}, Object.entries(realm.counts || {}).map(([type, count]) => el("li", {},
                el("a", {href: Studio.link(["r", realm.name, "t", type]), "data-type": type,
                    class: route.parts[1] === realm.name && route.parts[3] === type ? "current" : null},
                type, el("span", {class: "count"}, Studio.formatCount(count))))))))));
        if (realms.length === 0) list.replaceChildren(Studio.message("note", "This token may use no realm."));
    } catch (error) {
        list.replaceChildren(Studio.message("error", error.message));
    }
};

// The home view: every realm with its types and counts.
Studio.showHome = async function (view) {
    const el = Studio.el;
    const body = await Studio.getJSON("/v1/realms");
    view.replaceChildren(el("h1", {}, "Realms"),
        el("div", {class: "cards"}, (body.realms || []).map((realm) => Studio.realmCard(realm))));
};

Studio.realmCard = function (realm) {
    const el = Studio.el;
    return el("section", {class: "card", "data-realm": realm.name},
        el("h2", {}, el("a", {href: Studio.link(["r", realm.name])}, realm.name)),
        el("p", {class: "meta"}, "schema version " + realm.schemaVersion, " · ",
            el("a", {href: Studio.link(["r", realm.name, "schema"])}, "schema"), " · ",
            el("a", {href: Studio.link(["r", realm.name, "transfer"])}, "import or export")),
        el("table", {class: "counts"}, el("tbody", {}, Object.entries(realm.counts || {}).map(([type, count]) =>
            el("tr", {}, el("th", {}, el("a", {href: Studio.link(["r", realm.name, "t", type])}, type)),
                el("td", {}, Studio.formatCount(count)))))));
};

// One realm: its card.
Studio.showRealm = async function (view, realm) {
    const body = await Studio.getJSON("/v1/realms");
    const found = (body.realms || []).find((item) => item.name === realm);
    if (!found) throw new Studio.ApiError(404, null, "no realm '" + realm + "' is served (or this token may not use it)");
    view.replaceChildren(Studio.realmCard(found));
};

// Shows the view of the location's hash:
//   #/                          the realms
//   #/r/R                       realm R
//   #/r/R/t/T?where=…&sort=…    T's objects
//   #/r/R/t/T/k/K               the object of T with key K
//   #/r/R/schema                the schema diagram
//   #/r/R/transfer              import and export
Studio.show = async function () {
    // Each route renders into a holder of its own: a slower earlier view that finishes later
    // (one waiting for a token, say) fills a holder no longer on the page.
    const view = Studio.el("div", {class: "view"});
    document.getElementById("view").replaceChildren(view);
    const {parts, query} = Studio.route();
    Studio.notice(null);
    Studio.follow(parts[0] === "r" && parts[1] ? parts[1] : null);
    Studio.showCrumbs(parts);
    Studio.markCurrent(parts);
    try {
        if (parts.length === 0) await Studio.showHome(view);
        else if (parts[0] === "r" && parts.length === 2) await Studio.showRealm(view, parts[1]);
        else if (parts[0] === "r" && parts[2] === "t" && parts.length === 4) await Studio.showObjects(view, parts[1], parts[3], query);
        else if (parts[0] === "r" && parts[2] === "t" && parts[4] === "k" && parts.length === 6) await Studio.showObject(view, parts[1], parts[3], parts[5]);
        else if (parts[0] === "r" && parts[2] === "t" && parts[4] === "new" && parts.length === 5) await Studio.showCreate(view, parts[1], parts[3]);
        else if (parts[0] === "r" && parts[2] === "schema") await Studio.showSchema(view, parts[1]);
        else if (parts[0] === "r" && parts[2] === "transfer") await Studio.showTransfer(view, parts[1], query);
        else view.replaceChildren(Studio.message("error", "Kura Studio has no page '" + location.hash + "'"));
    } catch (error) {
        view.replaceChildren(Studio.el("h1", {}, "Not shown"), Studio.message("error", error.message));
    }
    Studio.showFlash(view);
};

// The message a save, creation or deletion left for the view that follows it, focused where it says.
Studio.showFlash = function (view) {
    const flash = Studio.flash;
    Studio.flash = null;
    if (!flash || !view.isConnected) return;
    view.prepend(Studio.el("p", {class: "message done", role: "status", id: "flash"}, flash.text));
    const target = flash.focus ? view.querySelector(flash.focus) : null;
    if (target) {
        if (!target.matches("button, a, input, select, textarea")) target.setAttribute("tabindex", "-1");
        target.focus();
    }
};

Studio.showCrumbs = function (parts) {
    const el = Studio.el;
    const crumbs = [el("a", {href: "#/"}, "realms")];
    if (parts[0] === "r" && parts[1]) {
        crumbs.push(" / ", el("a", {href: Studio.link(["r", parts[1]])}, parts[1]));
        if (parts[2] === "t" && parts[3]) crumbs.push(" / ", el("a", {href: Studio.link(["r", parts[1], "t", parts[3]])}, parts[3]));
        if (parts[4] === "k" && parts[5]) crumbs.push(" / ", el("span", {}, parts[5]));
        if (parts[4] === "new") crumbs.push(" / new");
        if (parts[2] === "schema") crumbs.push(" / schema");
        if (parts[2] === "transfer") crumbs.push(" / import and export");
    }
    document.getElementById("crumbs").replaceChildren(...crumbs);
};

Studio.markCurrent = function (parts) {
    for (const link of document.querySelectorAll("#realm-list a.current")) link.classList.remove("current");
    if (parts[0] !== "r") return;
    for (const link of document.querySelectorAll("#realm-list a")) {
        const hash = link.getAttribute("href");
        if (hash === Studio.link(["r", parts[1]]) || (parts[3] && hash === Studio.link(["r", parts[1], "t", parts[3]]))) link.classList.add("current");
    }
};

window.addEventListener("hashchange", Studio.show);
document.getElementById("changed-reload").addEventListener("click", () => Studio.show());
// A file dropped outside the import page must not replace Studio with the file's text.
window.addEventListener("dragover", (event) => event.preventDefault());
window.addEventListener("drop", (event) => event.preventDefault());
document.getElementById("token-button").addEventListener("click", async () => {
    if (await Studio.askToken("The token Studio sends to this server.")) {
        Studio.schemas.clear();
        Studio.refreshRealms();
        Studio.show();
    }
});
Studio.refreshRealms();
Studio.show();