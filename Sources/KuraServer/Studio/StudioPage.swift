// Part of Kura Studio, served by `StudioRoutes` from `StudioAssets`; kept as a string so that the
// binary serves it without files beside it.

/// The page of `GET /`: the frame the scripts fill in.
enum StudioPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kura Studio</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/studio/studio.css">
</head>
<body>
<header class="bar">
  <a class="brand" href="#/">Kura Studio</a>
  <nav id="crumbs" aria-label="where you are"></nav>
  <button id="token-button" type="button">Token</button>
</header>
<div class="layout">
  <aside id="sidebar" aria-label="realms">
    <h2>Realms</h2>
    <div id="realm-list"><p class="loading">Loading…</p></div>
  </aside>
  <main>
    <div id="changed-notice" class="notice" role="status" hidden>
      <span id="changed-text"></span> <button id="changed-reload" type="button">Show the changes</button>
    </div>
    <div id="view"><p class="loading">Loading…</p></div>
  </main>
</div>
<div id="token-dialog" class="dialog" role="dialog" aria-modal="true" aria-labelledby="token-title" hidden>
  <div class="dialog-body">
    <h2 id="token-title">Token</h2>
    <p id="token-reason"></p>
    <label for="token-input">Token</label>
    <input id="token-input" type="password" autocomplete="off" spellcheck="false">
    <p class="note" id="token-help">A token is a secret key, like a password, that lets you use this server. Whoever runs
    the server makes one with <code>kura token new NAME --scope read</code> (<code>--scope write</code> to import and
    change objects) and gives you the first line it prints. Studio keeps it in this browser tab only.</p>
    <div class="actions">
      <button id="token-cancel" type="button">Cancel</button>
      <button id="token-save" type="button" class="primary">Use token</button>
    </div>
  </div>
</div>
<script src="/studio/core.js"></script>
<script src="/studio/values.js"></script>
<script src="/studio/objects.js"></script>
<script src="/studio/schema.js"></script>
<script src="/studio/transfer.js"></script>
<script src="/studio/live.js"></script>
<script src="/studio/app.js"></script>
</body>
</html>
"""#
}
