// Kura Studio: follows the shown realm's commits (GET …/changes, from this server and any other
// process) to keep the sidebar's counts current and to say when what the page shows has changed.
"use strict";

Studio.live = {realm: null, controller: null, countsTimer: null};

// Follows `realm`'s commits, one stream at a time (null: none). A stream that ends is opened again
// after a pause, resuming after the last commit it reported.
Studio.follow = function (realm) {
    if (Studio.live.realm === realm) return;
    if (Studio.live.controller) Studio.live.controller.abort();
    const controller = realm ? new AbortController() : null;
    Studio.live = {realm, controller, countsTimer: null};
    if (!controller) return;
    (async () => {
        let lastId = null;
        while (!controller.signal.aborted) {
            try {
                lastId = await Studio.readChanges(realm, lastId, controller.signal);
            } catch (_) {
                // The server went away or the stream was stopped: try again below unless stopped.
            }
            await new Promise((resolve) => setTimeout(resolve, 5000));
        }
    })();
};

// Reads one stream of `realm`'s change events, after `lastId` when given; returns the last id seen.
Studio.readChanges = async function (realm, lastId, signal) {
    const headers = Studio.headers({"Accept": "text/event-stream"});
    if (lastId) headers["Last-Event-ID"] = lastId;
    const response = await fetch(Studio.realmPath(realm, "changes"), {headers, signal});
    if (response.status === 410) return null;
    if (!response.ok || !response.body) return lastId;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
        const {value, done} = await reader.read();
        if (done) return lastId;
        buffer += decoder.decode(value, {stream: true});
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
            const lines = buffer.slice(0, end).split("\n");
            buffer = buffer.slice(end + 2);
            const field = (name) => lines.filter((line) => line.startsWith(name + ":")).map((line) => line.slice(name.length + 1).trim());
            const [event] = field("event");
            const [id] = field("id");
            const data = field("data").join("\n");
            if (id) lastId = id;
            if (event === "change" && data) Studio.changed(realm, Studio.parseJSON(data));
        }
    }
};

// One commit of `realm`: the counts are read again, and a page showing what changed says so.
Studio.changed = function (realm, change) {
    if (Studio.live.realm !== realm) return;
    clearTimeout(Studio.live.countsTimer);
    Studio.live.countsTimer = setTimeout(Studio.refreshRealms, 200);
    const {parts} = Studio.route();
    const types = change.types || {};
    if (parts.length === 2) { Studio.show(); return; }
    if (parts[2] !== "t" || !types[parts[3]]) return;
    const kinds = types[parts[3]];
    if (parts[4] !== "k") {
        // The commit of a deletion this page made is no news to the table it went on to: a commit is
        // one write, so what else it changed (links to the object, cleared) came of that deletion.
        const deleted = Array.isArray(kinds.deleted) ? kinds.deleted : [];
        if (deleted.length > 0 && deleted.every((key) => Studio.ownDeletes.delete(parts[3] + "\u0000" + Studio.keyText(key)))) return;
        Studio.notice(parts[3] + " objects changed (commit " + change.version + ").");
        return;
    }
    const has = (kind) => Array.isArray(kinds[kind]) && kinds[kind].some((key) => Studio.keyText(key) === parts[5]);
    if (has("deleted")) Studio.notice("This object was deleted (commit " + change.version + ").");
    else if (has("modified") || has("inserted") || kinds.truncated) Studio.noticeUnlessOwn(realm, parts, change.version);
};

// A change of the shown object is news unless this page wrote it: the stored ETag is then the one
// the page holds (the page being shown again after its own save holds it too).
Studio.noticeUnlessOwn = async function (realm, parts, version) {
    const current = Studio.current;
    if (current && current.realm === realm && current.type.name === parts[3] && current.key === parts[5]) {
        try {
            const response = await fetch(current.url, {headers: Studio.headers({"Accept": "application/json"})});
            const stored = response.headers.get("ETag");
            if (response.ok && (stored === current.etag || (Studio.current && stored === Studio.current.etag))) return;
        } catch (_) {
            // Unreadable now: say that it changed.
        }
    }
    Studio.notice("This object changed (commit " + version + ").");
};

// Shows `text` above the view with a button that shows the page again; null hides it.
Studio.notice = function (text) {
    const notice = document.getElementById("changed-notice");
    notice.hidden = text === null;
    document.getElementById("changed-text").textContent = text || "";
};