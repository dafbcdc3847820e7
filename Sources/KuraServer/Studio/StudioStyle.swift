// Part of Kura Studio, served by `StudioRoutes` from `StudioAssets`; kept as a string so that the
// binary serves it without files beside it.

/// The style sheet, `GET /studio/studio.css`.
enum StudioStyle {
    static let css = #"""
/* Kura Studio: one sheet, no framework. */
:root {
  --ink: #1d2433; --muted: #667085; --line: #d6dae3; --soft: #f4f6fa; --accent: #2f5bd3;
  --link: #1f6f5c; --embedded: #8a5a00; --backlink: #8b3a8f; --error: #b42318; --ok: #1f7a3a;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); font-size: 14px;
}
* { box-sizing: border-box; }
body { margin: 0; background: #fff; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre, .scalar, td.key { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
button { font: inherit; padding: 4px 12px; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); cursor: pointer; }
button:hover:not(:disabled) { border-color: var(--accent); }
button:disabled { opacity: 0.5; cursor: default; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
input, select { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; }

.bar { display: flex; align-items: center; gap: 16px; padding: 8px 16px; border-bottom: 1px solid var(--line); background: var(--soft); }
.brand { font-weight: 700; color: var(--ink); }
#crumbs { flex: 1; color: var(--muted); }
.layout { display: flex; min-height: calc(100vh - 45px); }
#sidebar { width: 230px; flex: none; padding: 12px 16px; border-right: 1px solid var(--line); background: #fbfcfe; }
#sidebar h2 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); margin: 4px 0 8px; }
#sidebar ul { list-style: none; margin: 0; padding: 0; }
#sidebar ul.types { margin: 2px 0 10px 10px; }
#sidebar a { display: flex; justify-content: space-between; padding: 2px 6px; border-radius: 4px; color: var(--ink); }
#sidebar a.realm { font-weight: 600; }
#sidebar a.current { background: #e6ecfb; }
#sidebar .count { color: var(--muted); font-variant-numeric: tabular-nums; }
main { flex: 1; padding: 16px 24px; min-width: 0; }
.notice { display: flex; align-items: center; gap: 12px; padding: 6px 12px; margin-bottom: 10px; border-radius: 6px; background: #eef3ff; border: 1px solid #c7d5fb; }
.notice[hidden] { display: none; }
h1 { font-size: 20px; margin: 4px 0 6px; }
h1 .sub { font-weight: 400; color: var(--muted); font-size: 15px; }
h2 { font-size: 16px; margin: 18px 0 8px; }
h3 { font-size: 14px; margin: 12px 0 4px; }
.meta, .note { color: var(--muted); margin: 0 0 12px; }
.loading { color: var(--muted); }
.message { padding: 8px 12px; border-radius: 6px; margin: 8px 0; white-space: pre-wrap; }
.message.error { background: #fef3f2; color: var(--error); border: 1px solid #fecdca; }
.message.note { background: var(--soft); color: var(--muted); }

.cards { display: flex; flex-wrap: wrap; gap: 16px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; min-width: 260px; }
.card h2 { margin-top: 0; }
table.counts td { text-align: right; padding-left: 24px; font-variant-numeric: tabular-nums; }
table.counts th { text-align: left; font-weight: 400; }

.query { display: flex; gap: 8px; align-items: center; margin: 8px 0; }
.query input { flex: 1; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; }
table.objects { border-collapse: collapse; width: 100%; }
table.objects th, table.objects td { border-bottom: 1px solid var(--line); padding: 6px 10px; text-align: left; vertical-align: top; }
table.objects th { background: var(--soft); font-weight: 600; white-space: nowrap; position: sticky; top: 0; }
table.objects button.sort { border: none; background: none; padding: 0; font-weight: 600; }
table.objects th.sorted-asc, table.objects th.sorted-desc { color: var(--accent); }
table.objects td { max-width: 420px; }
.pager { display: flex; gap: 12px; align-items: center; margin: 10px 0; color: var(--muted); }

table.object { border-collapse: collapse; }
table.object th { text-align: left; vertical-align: top; padding: 6px 16px 6px 0; white-space: nowrap; }
table.object td { padding: 6px 0; vertical-align: top; }
.type-text { display: block; font-weight: 400; color: var(--muted); font-size: 12px; font-family: ui-monospace, monospace; }
.key-title { font-family: ui-monospace, monospace; }

.null, .empty { color: var(--muted); font-style: italic; }
.scalar.string { white-space: pre-wrap; }
.scalar.number { color: #0b5394; }
.scalar.boolean { color: #7a3e9d; }
a.link { color: var(--link); border-bottom: 1px dotted var(--link); }
a.link:hover { text-decoration: none; border-bottom-style: solid; }
.ref { color: var(--muted); font-family: ui-monospace, monospace; }
ul.items { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px; }
ul.items > li { border: 1px solid var(--line); border-radius: 4px; padding: 1px 6px; background: #fff; }
ul.items.set > li { border-radius: 10px; }
ul.items > li.empty { border: none; padding: 0; }
dl.map { display: grid; grid-template-columns: max-content auto; gap: 2px 10px; margin: 0; }
dl.map dt { color: var(--muted); }
dl.map dd { margin: 0; }
.nested { border-left: 3px solid var(--line); padding: 2px 0 2px 8px; margin: 2px 0; }
.nested.embedded { border-left-color: #e8c07a; }
.nested .type { display: block; font-size: 11px; color: var(--muted); }
.nested .field { display: flex; gap: 8px; }
.nested .field .name { color: var(--muted); min-width: 60px; overflow-wrap: normal; }
.plain { color: var(--muted); }
details.folded > summary { cursor: pointer; color: var(--ink); white-space: nowrap; }
details.folded > summary::marker { color: var(--muted); }
.more { color: var(--muted); font-style: italic; border: none !important; }

#backlinks ul.backlinks { margin: 4px 0; padding-left: 18px; }

.diagram-wrap { overflow: auto; border: 1px solid var(--line); border-radius: 8px; background: #fcfdff; margin-bottom: 12px; }
svg.schema-diagram rect { fill: #fff; stroke: #9aa4b8; }
svg.schema-diagram .embedded rect { fill: #fffaf0; stroke: #e0b260; }
svg.schema-diagram a:hover rect { stroke: var(--accent); stroke-width: 2; }
svg.schema-diagram line { stroke: #d6dae3; }
svg.schema-diagram text { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; fill: var(--ink); }
svg.schema-diagram text.title { font-weight: 700; }
svg.schema-diagram text.key { text-decoration: underline; }
svg.schema-diagram .arrow { fill: none; stroke-width: 1.5; stroke-linejoin: round; }
svg.schema-diagram .arrow.link { stroke: var(--link); }
svg.schema-diagram .arrow.embedded { stroke: var(--embedded); stroke-dasharray: 2 3; }
svg.schema-diagram .arrow.backlink { stroke: var(--backlink); stroke-dasharray: 6 4; }
svg.schema-diagram .head.link { fill: var(--link); }
svg.schema-diagram .head.embedded { fill: var(--embedded); }
svg.schema-diagram .head.backlink { fill: var(--backlink); }
pre.yaml { background: var(--soft); padding: 12px; border-radius: 6px; overflow: auto; }

.panel { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin-bottom: 16px; max-width: 900px; }
.panel h2 { margin-top: 0; }
.form-row { display: flex; align-items: center; gap: 12px; margin: 6px 0; }
.form-row label { width: 170px; color: var(--muted); }
.form-row input[type=text], .form-row select { min-width: 320px; }
.actions { margin: 10px 0; display: flex; gap: 8px; }
.drop-zone { border: 2px dashed var(--line); border-radius: 8px; padding: 12px 16px; text-align: center; margin-bottom: 10px; }
.drop-zone p { margin: 4px 0; }
.drop-zone.over { border-color: var(--accent); background: #eef3ff; }
.file-button { color: var(--accent); cursor: pointer; text-decoration: underline; }
.file-button input { position: absolute; width: 1px; height: 1px; opacity: 0; }
progress { width: 100%; height: 10px; }
table.summary, table.errors { border-collapse: collapse; margin: 8px 0; }
table.summary th, table.summary td, table.errors th, table.errors td { border: 1px solid var(--line); padding: 4px 10px; text-align: left; }
table.summary td { text-align: right; font-variant-numeric: tabular-nums; }
table.errors { border-color: #fecdca; }
ul.rejected code { color: var(--error); white-space: pre-wrap; }

.dialog { position: fixed; inset: 0; background: rgba(20, 24, 35, 0.4); display: flex; align-items: center; justify-content: center; }
.dialog[hidden] { display: none; }
.dialog-body { background: #fff; border-radius: 10px; padding: 16px 20px; width: 440px; max-width: calc(100vw - 24px); box-shadow: 0 10px 30px rgba(0, 0, 0, 0.2); }
.dialog-body input { width: 100%; margin: 6px 0; }

/* Text without spaces (keys, ids, messages) breaks rather than widening the page. */
h1, .message, .scalar, code, #crumbs, .note, td, dd { overflow-wrap: anywhere; }
.table-wrap.plain-wrap { border: none; border-radius: 0; }

/* A narrow screen (a phone): the realms above the page, forms one field a line, nothing wider than
   the screen; wide tables and the diagram scroll inside their own boxes. */
@media (max-width: 720px) {
  .bar { flex-wrap: wrap; gap: 4px 12px; padding: 8px 12px; }
  #crumbs { order: 3; flex-basis: 100%; min-width: 0; }
  #token-button { margin-left: auto; }
  .layout { flex-direction: column; min-height: 0; }
  #sidebar { width: auto; border-right: none; border-bottom: 1px solid var(--line); padding: 8px 12px; }
  #sidebar ul.types { display: flex; flex-wrap: wrap; gap: 2px 6px; margin: 2px 0 6px; }
  #sidebar ul.types a { gap: 6px; }
  main { padding: 12px; }
  .card { min-width: 0; width: 100%; }
  .query, .pager, .notice { flex-wrap: wrap; }
  .query input { min-width: 0; flex-basis: 100%; }
  .form-row { flex-wrap: wrap; gap: 2px 12px; }
  .form-row label { width: auto; flex-basis: 100%; }
  .form-row input[type=text], .form-row input[type=number], .form-row select { min-width: 0; width: 100%; }
  .panel { padding: 12px; }
  table.object th { white-space: normal; }
}
"""#
}
