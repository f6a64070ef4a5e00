// The installable app: registers the service worker (served at /sw.js, scope "/"), which
// keeps the app shell so the game starts at once and shows "no connection" offline.
// Service workers need HTTPS or localhost; on plain http:// from another device the
// game simply works without them (see docs/ONLINE.md).

if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => console.warn("service worker:", err));
  });
}
