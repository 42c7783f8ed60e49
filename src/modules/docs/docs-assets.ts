/**
 * Browser code of the two API viewers. The schema and every API call need application credentials,
 * so the viewers ask for them once per browser tab (kept in sessionStorage) and add them to
 * same-origin requests.
 */
export const CREDENTIALS_JS = `(function () {
  var KEY = 'gatehouse.docs.credentials';
  function credentials() {
    var c = null;
    try { c = JSON.parse(sessionStorage.getItem(KEY) || 'null'); } catch (e) { c = null; }
    if (!c) {
      var key = window.prompt('X-Access-Key of your application');
      var secret = key && window.prompt('X-Access-Secret of your application');
      if (key && secret) { c = { key: key, secret: secret }; sessionStorage.setItem(KEY, JSON.stringify(c)); }
    }
    return c;
  }
  var originalFetch = window.fetch;
  window.fetch = function (input, init) {
    var url = typeof input === 'string' ? input : (input && input.url) || String(input);
    if (new URL(url, window.location.href).origin === window.location.origin) {
      var c = credentials();
      if (c) {
        init = init || {};
        var headers = new Headers(init.headers || (typeof input === 'string' ? undefined : input.headers));
        if (!headers.has('X-Access-Key')) { headers.set('X-Access-Key', c.key); headers.set('X-Access-Secret', c.secret); }
        init.headers = headers;
      }
    }
    return originalFetch.call(this, input, init);
  };
  window.gatehouseForgetCredentials = function () { sessionStorage.removeItem(KEY); };
})();
`;

export const REDOC_INIT_JS = `window.addEventListener('load', function () {
  fetch('../schema/').then(function (r) {
    if (!r.ok) { window.gatehouseForgetCredentials(); throw new Error('The schema answered ' + r.status + ': check the application credentials and reload.'); }
    return r.json();
  }).then(function (spec) {
    Redoc.init(spec, { hideDownloadButton: false }, document.getElementById('redoc'));
  }).catch(function (e) { document.getElementById('redoc').textContent = e.message; });
});
`;

export const REDOC_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Gatehouse API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <script src="credentials.js"></script>
  <script src="redoc.standalone.js"></script>
  <script src="init.js"></script>
</head>
<body><div id="redoc">Loading…</div></body>
</html>
`;

export const REDOC_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
