// Kura Studio: a modal dialog that keeps the keyboard inside it and gives focus back to what
// opened it.
"use strict";

Studio.nextId = 0;
// An id no other element of the page has.
Studio.uniqueId = function (stem) {
    Studio.nextId += 1;
    return stem + "-" + Studio.nextId;
};

// Opens a dialog: {id, title, content: [nodes], actions: [buttons], onCancel, focus}. Escape and
// a click outside call onCancel; Tab and Shift+Tab cycle within it. Returns {node, close}; close()
// removes it and focuses the element that had the focus when it opened.
Studio.openDialog = function (options) {
    const el = Studio.el;
    const opener = document.activeElement;
    const titleId = Studio.uniqueId("dialog-title");
    const body = el("div", {class: "dialog-body"}, el("h2", {id: titleId}, options.title), options.content,
        el("div", {class: "actions"}, options.actions));
    const node = el("div", {id: options.id, class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": titleId}, body);
    let closed = false;
    const close = () => {
        if (closed) return;
        closed = true;
        node.remove();
        document.removeEventListener("keydown", onKey, true);
        window.removeEventListener("hashchange", onLeave);
        if (opener && opener.isConnected && typeof opener.focus === "function") opener.focus();
    };
    const focusable = () => Array.from(body.querySelectorAll("button, input, select, textarea, a[href], [tabindex]:not([tabindex='-1'])"))
        .filter((item) => !item.disabled && item.offsetParent !== null);
    const onKey = (event) => {
        if (!node.isConnected) return;
        if (event.key === "Escape") {
            event.preventDefault();
            event.stopPropagation();
            if (options.onCancel) options.onCancel(); else close();
            return;
        }
        if (event.key !== "Tab") return;
        const items = focusable();
        if (items.length === 0) { event.preventDefault(); return; }
        const first = items[0];
        const last = items[items.length - 1];
        const inside = body.contains(document.activeElement);
        if (event.shiftKey && (document.activeElement === first || !inside)) { event.preventDefault(); last.focus(); }
        else if (!event.shiftKey && (document.activeElement === last || !inside)) { event.preventDefault(); first.focus(); }
    };
    // Another page shown (the browser's Back, say) takes the dialog with the page it was for.
    const onLeave = () => { if (options.onCancel) options.onCancel(); else close(); };
    window.addEventListener("hashchange", onLeave);
    document.addEventListener("keydown", onKey, true);
    node.addEventListener("mousedown", (event) => {
        if (event.target === node) { if (options.onCancel) options.onCancel(); else close(); }
    });
    document.body.append(node);
    const start = options.focus || focusable()[0];
    if (start) start.focus();
    return {node, close};
};
