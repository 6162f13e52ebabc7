// GET /docs/init.js – starts Redoc on the page's container with the served OpenAPI document. The
// nonce lets Redoc's run-time styles through the page's Content-Security-Policy.
const SCRIPT = `(function () {
  var el = document.getElementById('redoc');
  var nonce = document.currentScript && document.currentScript.nonce;
  window.Redoc.init(el.getAttribute('data-spec-url'), {
    nonce: nonce || undefined,
    hideHostname: false,
    theme: { typography: { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif' } } }
  }, el);
})();
`;

export function GET() {
  return new Response(SCRIPT, {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
}
