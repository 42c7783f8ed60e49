/** ReDoc's page and start-up script: scripts are files of this server, so the page's CSP allows no inline script. */
export const REDOC_INIT_JS = `window.addEventListener('load', function () {
  Redoc.init('../schema/', { hideDownloadButton: false }, document.getElementById('redoc'));
});
`;

export const REDOC_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Gatehouse API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <script src="redoc.standalone.js"></script>
  <script src="init.js"></script>
</head>
<body><div id="redoc">Loading…</div></body>
</html>
`;

export const REDOC_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
