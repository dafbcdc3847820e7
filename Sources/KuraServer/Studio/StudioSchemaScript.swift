// Part of Kura Studio, served by `StudioRoutes` from `StudioAssets`; kept as a string so that the
// binary serves it without files beside it.

/// `schema.js`: the schema as an SVG diagram of types and links.
enum StudioSchemaScript {
    static let source = #"""
// Kura Studio: the schema as a diagram of types and the links between them (SVG).
"use strict";

Studio.svg = function (tag, attributes, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [name, value] of Object.entries(attributes || {})) {
        if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
        else node.setAttribute(name, String(value));
    }
    for (const child of children.flat(Infinity)) {
        if (child === null || child === undefined) continue;
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
};

// Box sizes in pixels: the text is monospace, so a line's width follows its length.
Studio.diagram = {charWidth: 7.4, lineHeight: 18, padding: 8, gapX: 90, gapY: 40};

Studio.showSchema = async function (view, realm) {
    const el = Studio.el;
    const schema = await Studio.schema(realm);
    const response = await Studio.request(Studio.realmPath(realm, "schema"), {headers: {"Accept": "application/yaml"}});
    const yaml = await response.text();
    view.replaceChildren(
        el("h1", {}, "Schema", el("span", {class: "sub"}, " of " + realm + ", version " + schema.version)),
        el("p", {class: "meta"}, "Solid arrows are links, dotted ones embedded objects, dashed ones computed backlinks (linkingObjects). Click a type to see its objects."),
        el("div", {class: "diagram-wrap"}, Studio.schemaDiagram(schema, realm)),
        el("details", {}, el("summary", {}, "As kura schema prints it"), el("pre", {class: "yaml"}, yaml)));
};

// The diagram: a box per type in a grid, its properties listed, an arrow from each linking
// property to the type it links to.
Studio.schemaDiagram = function (schema, realm) {
    const d = Studio.diagram;
    const svg = Studio.svg;
    const boxes = new Map();
    const columns = Math.max(1, Math.ceil(Math.sqrt(schema.types.length)));
    const layout = schema.types.map((type) => {
        const lines = type.properties.map((property) => property.name + ": " + property.type.text);
        const title = type.name + (type.embedded ? " (embedded)" : "");
        const width = Math.max(title.length, ...lines.map((line) => line.length), 8) * d.charWidth + 2 * d.padding;
        const height = (lines.length + 1) * d.lineHeight + 2 * d.padding;
        return {type, lines, title, width, height};
    });
    const columnWidths = [];
    const rowHeights = [];
    layout.forEach((box, index) => {
        const column = index % columns;
        const row = Math.floor(index / columns);
        columnWidths[column] = Math.max(columnWidths[column] || 0, box.width);
        rowHeights[row] = Math.max(rowHeights[row] || 0, box.height);
    });
    const offset = (sizes, index, gap) => sizes.slice(0, index).reduce((sum, size) => sum + size + gap, gap / 2);
    layout.forEach((box, index) => {
        box.x = offset(columnWidths, index % columns, d.gapX);
        box.y = offset(rowHeights, Math.floor(index / columns), d.gapY);
        boxes.set(box.type.name, box);
    });
    const width = offset(columnWidths, columnWidths.length, d.gapX);
    const height = offset(rowHeights, rowHeights.length, d.gapY);

    const arrows = [];
    for (const box of layout) {
        box.type.properties.forEach((property, line) => {
            const target = boxes.get(property.type.base);
            if (property.type.scalar || !target) return;
            const kind = property.type.collection === "backlinks" ? "backlink" : target.type.embedded ? "embedded" : "link";
            const fromY = box.y + d.padding + (line + 1.5) * d.lineHeight;
            let path;
            if (target === box) {
                const edge = box.x + box.width;
                const toY = box.y + d.padding + d.lineHeight / 2;
                path = `M ${edge} ${fromY} C ${edge + 40} ${fromY}, ${edge + 40} ${toY}, ${edge} ${toY}`;
            } else if (Math.abs(target.x - box.x) < 1) {
                // The same column: out of the left edges and back, around the boxes between.
                const toY = target.y + d.padding + d.lineHeight / 2;
                path = `M ${box.x} ${fromY} C ${box.x - 40} ${fromY}, ${target.x - 40} ${toY}, ${target.x} ${toY}`;
            } else {
                const rightward = target.x >= box.x + box.width / 2;
                const fromX = rightward ? box.x + box.width : box.x;
                const toX = rightward ? target.x : target.x + target.width;
                const toY = target.y + d.padding + d.lineHeight / 2;
                const bend = (toX - fromX) / 2;
                path = `M ${fromX} ${fromY} C ${fromX + bend} ${fromY}, ${toX - bend} ${toY}, ${toX} ${toY}`;
            }
            arrows.push(svg("path", {d: path, class: "arrow " + kind, "marker-end": "url(#head-" + kind + ")"},
                svg("title", {}, box.type.name + "." + property.name + " → " + target.type.name + " (" + property.type.text + ")")));
        });
    }
    const marker = (kind) => svg("marker", {id: "head-" + kind, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse"},
        svg("path", {d: "M 0 0 L 10 5 L 0 10 z", class: "head " + kind}));
    const groups = layout.map((box) => {
        const anchor = svg("a", {href: box.type.embedded ? Studio.link(["r", realm, "schema"]) : Studio.link(["r", realm, "t", box.type.name]),
            class: "type-box" + (box.type.embedded ? " embedded" : ""), "data-type": box.type.name});
        anchor.append(
            svg("rect", {x: box.x, y: box.y, width: box.width, height: box.height, rx: 6}),
            svg("text", {x: box.x + d.padding, y: box.y + d.padding + d.lineHeight * 0.75, class: "title"}, box.title),
            svg("line", {x1: box.x, x2: box.x + box.width, y1: box.y + d.padding + d.lineHeight * 1.05, y2: box.y + d.padding + d.lineHeight * 1.05}),
            ...box.lines.map((line, index) => svg("text", {x: box.x + d.padding, y: box.y + d.padding + d.lineHeight * (index + 1.75),
                class: box.type.properties[index].name === box.type.primaryKey ? "property key" : "property"}, line)));
        return anchor;
    });
    return svg("svg", {class: "schema-diagram", width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
        "aria-label": "types and links of " + realm},
    svg("defs", {}, ["link", "embedded", "backlink"].map(marker)), arrows, groups);
};
"""#
}
