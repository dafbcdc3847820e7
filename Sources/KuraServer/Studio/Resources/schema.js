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

// Sizes in pixels: the text is monospace, so a line's width follows its length. Arrows run in the
// gaps between the boxes, `lane` apart; a gap between boxes is at least `gap` wide and grows with
// its arrows, one at the edge without arrows is `margin` wide.
Studio.diagram = {charWidth: 7.4, lineHeight: 18, padding: 8, lane: 12, gap: 40, margin: 16};

Studio.showSchema = async function (view, realm) {
    const el = Studio.el;
    const schema = await Studio.schema(realm);
    const response = await Studio.request(Studio.realmPath(realm, "schema"), {headers: {"Accept": "application/yaml"}});
    const yaml = await response.text();
    const wrap = el("div", {class: "diagram-wrap"});
    view.replaceChildren(
        el("h1", {}, "Schema", el("span", {class: "sub"}, " of " + realm + ", version " + schema.version)),
        el("p", {class: "meta"}, "Solid arrows are links, dotted ones embedded objects, dashed ones computed backlinks (linkingObjects). Click a type to see its objects."),
        wrap,
        el("details", {}, el("summary", {}, "As kura schema prints it"), el("pre", {class: "yaml"}, yaml)));
    wrap.append(Studio.schemaDiagram(schema, realm, wrap.clientWidth));
};

// The diagram: a box per type in a grid, its properties listed, an arrow from each linking
// property to the type it links to. The grid has about as many columns as rows, fewer (down to
// one) when that is wider than `maxWidth`, so that a phone shows the diagram whole.
Studio.schemaDiagram = function (schema, realm, maxWidth) {
    const d = Studio.diagram;
    const svg = Studio.svg;
    let columns = Math.max(1, Math.ceil(Math.sqrt(schema.types.length)));
    let plan = Studio.diagramPlan(schema, columns);
    while (maxWidth > 0 && plan.width > maxWidth && columns > 1) {
        columns -= 1;
        plan = Studio.diagramPlan(schema, columns);
    }
    const paths = plan.arrows.map((arrow) => {
        const line = arrow.points.map(([x, y], index) => (index === 0 ? "M " : "L ") + x.toFixed(1) + " " + y.toFixed(1)).join(" ");
        return svg("path", {d: line, class: "arrow " + arrow.kind, "marker-end": "url(#head-" + arrow.kind + ")",
            "data-from": arrow.box.type.name, "data-to": arrow.target.type.name},
        svg("title", {}, arrow.box.type.name + "." + arrow.property.name + " → " + arrow.target.type.name + " (" + arrow.property.type.text + ")"));
    });
    const marker = (kind) => svg("marker", {id: "head-" + kind, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse"},
        svg("path", {d: "M 0 0 L 10 5 L 0 10 z", class: "head " + kind}));
    const groups = plan.boxes.map((box) => {
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
    return svg("svg", {class: "schema-diagram", width: plan.width, height: plan.height, viewBox: `0 0 ${plan.width} ${plan.height}`, role: "img",
        "aria-label": "types and links of " + realm},
    svg("defs", {}, ["link", "embedded", "backlink"].map(marker)), paths, groups);
};

// Where the `index`th of `count` arrows into one side of `box` meets it: on the lines between its
// rows of text, spread along the side, so never where an arrow leaves from the middle of a row.
Studio.entryY = function (box, index, count) {
    const d = Studio.diagram;
    const between = box.lines.length + 1;
    if (count > between) return box.y + box.height * (index + 1) / (count + 1);
    return box.y + d.padding + d.lineHeight * (Math.floor((index + 0.5) * between / count) + 1);
};

// Where the boxes and arrows of the diagram go in a grid of `columns` columns: {boxes, arrows,
// width, height}, each box with x, y, width and height, each arrow with its points.
//
// Arrows run only in the gaps of the grid, so that none crosses a box: out of a side of their box
// into the gap beside it, along the gap between two rows when they must reach another column's
// gap, then into a side of the target. Each has a lane of its own in every gap it runs along, so
// that none hides another, and arrows into one side of a box meet it at points of their own.
Studio.diagramPlan = function (schema, columns) {
    const d = Studio.diagram;
    const boxes = schema.types.map((type, index) => {
        const lines = type.properties.map((property) => property.name + ": " + property.type.text);
        const title = type.name + (type.embedded ? " (embedded)" : "");
        const width = Math.max(title.length, ...lines.map((line) => line.length), 8) * d.charWidth + 2 * d.padding;
        const height = (lines.length + 1) * d.lineHeight + 2 * d.padding;
        return {type, lines, title, width, height, column: index % columns, row: Math.floor(index / columns), entries: {left: [], right: []}};
    });
    const rows = Math.max(1, Math.ceil(boxes.length / columns));
    const byName = new Map(boxes.map((box) => [box.type.name, box]));

    // Each arrow's way: the column gap it leaves its box into (gap k lies left of column k), the one
    // it enters its target from, and, when the two differ, the row gap it follows between them.
    const arrows = [];
    for (const box of boxes) {
        box.type.properties.forEach((property, line) => {
            const target = byName.get(property.type.base);
            if (property.type.scalar || !target) return;
            const kind = property.type.collection === "backlinks" ? "backlink" : target.type.embedded ? "embedded" : "link";
            const arrow = {box, target, property, line, kind};
            if (target.column > box.column) Object.assign(arrow, {exitSide: "right", exitGap: box.column + 1, entrySide: "left", entryGap: target.column});
            else if (target.column < box.column) Object.assign(arrow, {exitSide: "left", exitGap: box.column, entrySide: "right", entryGap: target.column + 1});
            else Object.assign(arrow, {exitSide: "right", exitGap: box.column + 1, entrySide: "right", entryGap: box.column + 1});
            arrow.rowGap = arrow.exitGap === arrow.entryGap ? null : (target.row > box.row ? box.row + 1 : box.row);
            target.entries[arrow.entrySide].push(arrow);
            arrows.push(arrow);
        });
    }
    const columnLanes = Array.from({length: columns + 1}, () => 0);
    const rowLanes = Array.from({length: rows + 1}, () => 0);
    for (const arrow of arrows) {
        arrow.exitLane = columnLanes[arrow.exitGap]++;
        arrow.entryLane = arrow.entryGap === arrow.exitGap ? arrow.exitLane : columnLanes[arrow.entryGap]++;
        if (arrow.rowGap !== null) arrow.rowLane = rowLanes[arrow.rowGap]++;
    }

    // The grid: columns as wide as their widest box, rows as tall as their tallest, gaps as wide
    // as their lanes need.
    const columnWidths = Array.from({length: columns}, () => 0);
    const rowHeights = Array.from({length: rows}, () => 0);
    for (const box of boxes) {
        columnWidths[box.column] = Math.max(columnWidths[box.column], box.width);
        rowHeights[box.row] = Math.max(rowHeights[box.row], box.height);
    }
    const axis = (sizes, lanes) => {
        const gapSize = (index) => {
            const outer = index === 0 || index === sizes.length;
            return lanes[index] === 0 && outer ? d.margin : Math.max(d.gap, (lanes[index] + 1) * d.lane);
        };
        const gaps = [];
        const starts = [];
        let at = 0;
        sizes.forEach((size, index) => {
            gaps.push({start: at, size: gapSize(index), lanes: lanes[index]});
            at += gapSize(index);
            starts.push(at);
            at += size;
        });
        gaps.push({start: at, size: gapSize(sizes.length), lanes: lanes[sizes.length]});
        return {gaps, starts, end: at + gapSize(sizes.length), lane: (gap, lane) => gaps[gap].start + gaps[gap].size * (lane + 1) / (gaps[gap].lanes + 1)};
    };
    const xs = axis(columnWidths, columnLanes);
    const ys = axis(rowHeights, rowLanes);
    for (const box of boxes) {
        box.x = xs.starts[box.column];
        box.y = ys.starts[box.row];
    }
    for (const arrow of arrows) {
        const {box, target} = arrow;
        const fromY = box.y + d.padding + (arrow.line + 1.5) * d.lineHeight;
        const fromX = arrow.exitSide === "right" ? box.x + box.width : box.x;
        const toY = Studio.entryY(target, target.entries[arrow.entrySide].indexOf(arrow), target.entries[arrow.entrySide].length);
        const toX = arrow.entrySide === "right" ? target.x + target.width : target.x;
        const exitX = xs.lane(arrow.exitGap, arrow.exitLane);
        const entryX = xs.lane(arrow.entryGap, arrow.entryLane);
        arrow.points = [[fromX, fromY], [exitX, fromY]];
        if (arrow.rowGap === null) {
            arrow.points.push([exitX, toY]);
        } else {
            const alongY = ys.lane(arrow.rowGap, arrow.rowLane);
            arrow.points.push([exitX, alongY], [entryX, alongY], [entryX, toY]);
        }
        arrow.points.push([toX, toY]);
    }
    return {boxes, arrows, width: xs.end, height: ys.end};
};