// Kura Studio: import a file (chosen or dropped) with progress and every error, and export in
// each format as a download.
"use strict";

// The media type of an import file, by its name's extension.
Studio.mediaType = function (name) {
    const extension = (name.split(".").pop() || "").toLowerCase();
    return {json: "application/json", jsonl: "application/x-ndjson", ndjson: "application/x-ndjson",
        yaml: "application/yaml", yml: "application/yaml"}[extension] || null;
};

Studio.showTransfer = async function (view, realm, query) {
    const el = Studio.el;
    const schema = await Studio.schema(realm);
    const chosenType = query.get("type") || "";
    const typeOptions = (first) => [el("option", {value: ""}, first)].concat(schema.types.filter((type) => !type.embedded)
        .map((type) => el("option", {value: type.name, selected: type.name === chosenType}, type.name)));
    const select = (id, values, chosen) => el("select", {id}, values.map((value) => el("option", {value, selected: value === chosen}, value)));

    // --- import ---
    const fileInput = el("input", {type: "file", id: "import-file", accept: ".json,.jsonl,.ndjson,.yaml,.yml"});
    const fileName = el("span", {id: "import-file-name"}, "no file chosen");
    const drop = el("div", {id: "drop-zone", class: "drop-zone", tabindex: "0"},
        el("p", {}, "Drop a .json, .jsonl, .ndjson, .yaml or .yml file here, or "), el("label", {class: "file-button"}, "choose one", fileInput),
        el("p", {}, fileName));
    let file = null;
    const choose = (chosen) => {
        file = chosen || null;
        fileName.textContent = file ? file.name + " (" + Studio.formatBytes(file.size) + ")" : "no file chosen";
        start.disabled = !file;
    };
    fileInput.addEventListener("change", () => choose(fileInput.files[0]));
    // A file dropped anywhere on this page is the one to import (the browser would open it).
    view.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
    view.addEventListener("dragleave", (event) => { if (event.target === drop) drop.classList.remove("over"); });
    view.addEventListener("drop", (event) => {
        event.preventDefault();
        drop.classList.remove("over");
        if (event.dataTransfer && event.dataTransfer.files.length > 0) choose(event.dataTransfer.files[0]);
    });
    const importType = el("select", {id: "import-type"}, typeOptions("each document's $type (a whole-realm file)"));
    const mode = select("import-mode", ["insert", "update", "modified", "replace"], "insert");
    const onError = select("import-on-error", ["stop", "skip"], "stop");
    const dryRun = el("input", {type: "checkbox", id: "import-dry-run"});
    const progress = el("progress", {id: "import-progress", max: "100", value: "0", hidden: true});
    const status = el("p", {id: "import-status", role: "status"});
    const read = el("p", {id: "import-read", class: "note"});
    const result = el("div", {id: "import-result"});
    const start = el("button", {type: "button", id: "import-start", disabled: true}, "Import");
    start.addEventListener("click", () => Studio.runImport({realm, file, type: importType.value, mode: mode.value,
        onError: onError.value, dryRun: dryRun.checked, progress, status, read, result, start}));

    // --- export ---
    const exportType = el("select", {id: "export-type"}, typeOptions("the whole realm"));
    const exportWhere = el("input", {type: "text", id: "export-where", placeholder: "where (needs a type)", spellcheck: "false"});
    const exportSort = el("input", {type: "text", id: "export-sort", placeholder: "sort, such as name or age desc", spellcheck: "false"});
    const exportLimit = el("input", {type: "number", id: "export-limit", min: "1", placeholder: "limit"});
    const exportFormat = select("export-format", ["json", "jsonl", "yaml"], "json");
    const exportStatus = el("p", {id: "export-status", role: "status"});
    const exportStart = el("button", {type: "button", id: "export-start"}, "Export and download");
    exportStart.addEventListener("click", () => Studio.runExport({realm, type: exportType.value, where: exportWhere.value.trim(),
        sort: exportSort.value.trim(), limit: exportLimit.value.trim(), format: exportFormat.value, status: exportStatus, button: exportStart}));

    const row = (label, control) => el("div", {class: "form-row"}, el("label", {for: control.id}, label), control);
    view.replaceChildren(
        el("h1", {}, "Import and export", el("span", {class: "sub"}, " " + realm)),
        el("section", {class: "panel", id: "import-panel"}, el("h2", {}, "Import"), drop,
            row("type", importType), row("mode", mode), row("on error", onError), row("dry run (write nothing)", dryRun),
            el("div", {class: "actions"}, start), progress, status, read, result),
        el("section", {class: "panel", id: "export-panel"}, el("h2", {}, "Export"),
            row("type", exportType), row("where", exportWhere), row("sort", exportSort), row("limit", exportLimit),
            row("format", exportFormat), el("div", {class: "actions"}, exportStart), exportStatus));
};

// Sends the file as the body of POST …/import, showing the bytes sent, then the answer.
//
// However the import ends (an answer, a failed connection, an abort), `end` runs first and once:
// it clears the lines that followed the import (bytes sent, "finishing the import…", documents
// read), and after it no late upload event or progress poll writes them again.
Studio.runImport = function (job) {
    const el = Studio.el;
    const contentType = Studio.mediaType(job.file.name);
    job.result.replaceChildren();
    job.read.textContent = "";
    job.status.textContent = "";
    if (!contentType) {
        job.progress.hidden = true;
        job.result.append(Studio.message("error", "'" + job.file.name + "' is not a .json, .jsonl, .ndjson, .yaml or .yml file"));
        return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open("POST", Studio.realmPath(job.realm, "import")
        + Studio.query({type: job.type, mode: job.mode, onError: job.onError, dryRun: job.dryRun ? "true" : ""}));
    xhr.setRequestHeader("Content-Type", contentType);
    const token = Studio.token();
    if (token) xhr.setRequestHeader("Authorization", "Bearer " + token);
    job.start.disabled = true;
    job.progress.hidden = false;
    job.progress.value = 0;
    job.status.textContent = "Sending " + job.file.name + "…";
    let ended = false;
    // The server reads documents as the body arrives: its count, beside the bytes sent.
    const watch = setInterval(() => Studio.watchImport(job, () => ended), 500);
    const end = () => {
        if (ended) return false;
        ended = true;
        clearInterval(watch);
        job.start.disabled = false;
        job.status.textContent = "";
        job.read.textContent = "";
        return true;
    };
    const fail = (text) => {
        if (!end()) return;
        job.progress.hidden = true;
        job.result.append(Studio.message("error", text));
    };
    xhr.upload.addEventListener("progress", (event) => {
        if (ended || !event.lengthComputable) return;
        job.progress.value = Math.round(event.loaded / event.total * 100);
        job.status.textContent = "Sent " + Studio.formatBytes(event.loaded) + " of " + Studio.formatBytes(event.total);
    });
    xhr.upload.addEventListener("load", () => { if (!ended) job.status.textContent = "Sent; the server is finishing the import…"; });
    xhr.addEventListener("error", () => fail("the connection to the server failed before it answered"));
    xhr.addEventListener("abort", () => fail("the import was stopped before the server answered"));
    xhr.addEventListener("timeout", () => fail("the server did not answer in time"));
    xhr.addEventListener("loadend", () => fail("the import ended without an answer"));
    xhr.addEventListener("load", async () => {
        if (!end()) return;
        let body = null;
        try { body = JSON.parse(xhr.responseText); } catch (_) { body = null; }
        if ((xhr.status === 401 || xhr.status === 403)
            && await Studio.askToken(Studio.tokenReason(xhr.status, (body && body.detail) || "HTTP " + xhr.status))) {
            Studio.runImport(job);
            return;
        }
        if (xhr.status === 200 && body) {
            job.progress.value = 100;
            job.status.textContent = (body.dryRun ? "Checked (dry run, nothing written): " : "Imported: ")
                + Studio.formatCount(body.documents) + " documents";
            job.result.append(Studio.importSummary(body));
            Studio.schemas.delete(job.realm);
            Studio.refreshRealms();
            return;
        }
        job.progress.hidden = true;
        job.result.append(Studio.message("error", (body && body.detail) || ("HTTP " + xhr.status + ": " + xhr.responseText)));
        if (body && Array.isArray(body.errors) && body.errors.length > 0) {
            job.result.append(el("div", {class: "table-wrap plain-wrap"}, Studio.errorTable(body.errors)));
        }
    });
    xhr.send(job.file);
};

// Shows the documents the server has read so far (GET …/imports), when one import runs, unless
// the import has ended (`hasEnded`) by the time the answer comes.
Studio.watchImport = async function (job, hasEnded) {
    try {
        // Never a question about the token: the import's own answer asks when it must.
        const response = await Studio.request(Studio.realmPath(job.realm, "imports"), {headers: {"Accept": "application/json"}, noRetry: true});
        const body = Studio.parseJSON(await response.text());
        const running = body.imports || [];
        if (running.length !== 1 || hasEnded()) return;
        job.read.textContent = "The server has read " + Studio.formatCount(running[0].documents) + " documents ("
            + Studio.formatCount(Math.round(running[0].documentsPerSecond)) + " a second).";
    } catch (_) {
        // Progress is a courtesy: the answer of the import itself says what happened.
    }
};

// The counts per type, and the documents set aside with their errors.
Studio.importSummary = function (body) {
    const el = Studio.el;
    const rows = Object.entries(body.types || {}).map(([type, counts]) => el("tr", {}, el("th", {}, type),
        ["inserted", "updated", "unchanged", "deleted"].map((name) => el("td", {}, Studio.formatCount(counts[name] || 0)))));
    const parts = [el("table", {class: "summary"},
        el("thead", {}, el("tr", {}, el("th", {}, "type"), ["inserted", "updated", "unchanged", "deleted"].map((name) => el("th", {}, name)))),
        el("tbody", {}, rows))];
    const unknown = Object.entries(body.unknownKeys || {});
    if (unknown.length > 0) {
        parts.push(el("p", {class: "note"}, "Keys the schema does not define, ignored: ",
            unknown.map(([key, count]) => key + " (" + count + ")").join(", ")));
    }
    if ((body.rejected || []).length > 0) {
        parts.push(el("h3", {}, Studio.formatCount(body.rejectedCount || body.rejected.length) + " documents set aside"));
        parts.push(el("ul", {class: "rejected"}, body.rejected.map((item) => el("li", {},
            "document at line " + item.document.line + ", column " + item.document.column,
            el("ul", {}, item.errors.map((text) => el("li", {}, el("code", {}, text))))))));
    }
    return el("div", {}, parts);
};

// A document error's list: line, column, path and message of each.
Studio.errorTable = function (errors) {
    const el = Studio.el;
    return el("table", {class: "errors", id: "import-errors"},
        el("thead", {}, el("tr", {}, ["line", "column", "path", "message"].map((name) => el("th", {}, name)))),
        el("tbody", {}, errors.map((error) => el("tr", {}, el("td", {}, error.line), el("td", {}, error.column),
            el("td", {}, el("code", {}, error.path)), el("td", {}, error.message)))));
};

// Fetches the export and hands it to the browser as a file.
Studio.runExport = async function (job) {
    job.button.disabled = true;
    job.status.textContent = "Exporting…";
    try {
        const response = await Studio.request(Studio.realmPath(job.realm, "export")
            + Studio.query({type: job.type, where: job.where, sort: job.sort, limit: job.limit, format: job.format}));
        const blob = await response.blob();
        const name = job.realm + (job.type ? "-" + job.type : "") + "." + job.format;
        const url = URL.createObjectURL(blob);
        const anchor = Studio.el("a", {href: url, download: name, id: "export-link"}, name);
        job.status.replaceChildren("Exported " + Studio.formatBytes(blob.size) + ": ", anchor);
        anchor.click();
    } catch (error) {
        job.status.replaceChildren(Studio.message("error", error.message));
    } finally {
        job.button.disabled = false;
    }
};