// The service worker: keeps the app shell (the page and /static/) so the installed game
// starts at once and, with the server out of reach, still plays every game at your own
// table (Play with AI, Pass & Play run in the page: js/local-room.js) and replays it with
// its odds chart and moments (worked out in the page: js/local-story.js). The modules
// loaded later (the replay, the chart, the chain) are kept with the rest, when the
// worker installs after the first screen. Only a device that never kept the shell gets
// the "no connection" page.
// Game state is never cached: /api/, /ws and everything else go to the network untouched.
//
// Every start (a page navigation) asks the server for /shell.json. If that fails, the
// offline page is shown. If it answers, the cached page is served at once and, when the
// shell's version changed, the new shell is downloaded in the background into a new
// cache; the next start uses it. A page keeps the shell version it started with.

const PREFIX = "snakes-shell-";
const META = "snakes-meta";
const CURRENT = "/__current-shell";
const REACH_MS = 4000;
const pinned = new Map(); // client id -> cache name it started with

self.addEventListener("install", (event) => {
  event.waitUntil(refresh().catch(() => null).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && isPage(url.pathname)) {
    event.respondWith(start(event));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(fromShell(event));
  }
  // Anything else (/api/, /ws, /shell.json, /healthz, ...) is not ours to answer.
});

function isPage(path) {
  return path === "/" || /^\/r\/[A-Za-z0-9]{4,12}\/?$/.test(path);
}

async function currentName() {
  const meta = await caches.open(META);
  const hit = await meta.match(CURRENT);
  return hit ? hit.text() : null;
}

async function withTimeout(promise, ms) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function askShell() {
  const response = await withTimeout(fetch("/shell.json", { cache: "no-store" }), REACH_MS);
  if (!response.ok) throw new Error(`shell.json: ${response.status}`);
  return response.json();
}

/** Download a new shell when the server's version differs from the cached one. */
async function refresh(known = null) {
  const shell = known || (await askShell());
  const name = PREFIX + shell.version;
  if ((await currentName()) === name) return;
  const cache = await caches.open(name);
  await cache.addAll(shell.files.map((file) => new Request(file, { cache: "no-cache" })));
  const meta = await caches.open(META);
  await meta.put(CURRENT, new Response(name));
  const inUse = new Set(pinned.values());
  for (const key of await caches.keys()) {
    if (key.startsWith(PREFIX) && key !== name && !inUse.has(key)) await caches.delete(key);
  }
}

async function start(event) {
  let shell = null;
  try {
    shell = await askShell();
  } catch {
    shell = null;
  }
  const name = await currentName();
  const cache = name ? await caches.open(name) : null;
  const page = cache ? await cache.match("/") : null;
  if (!shell) {
    // No server: the kept page still plays every game at your own table (they run in
    // the page); online screens say they need a connection. Without a kept page, the
    // "no connection" page.
    if (!page) return offline();
    if (event.resultingClientId) pinned.set(event.resultingClientId, name);
    return page;
  }
  // Any served page triggers an update of the cached shell (used from the next start).
  event.waitUntil(refresh(shell).catch(() => null));
  if (!page) return fetch(event.request);
  if (event.resultingClientId) pinned.set(event.resultingClientId, name);
  event.waitUntil(forgetClosedPages());
  return page;
}

async function forgetClosedPages() {
  const open = new Set((await self.clients.matchAll({ includeUncontrolled: true })).map((client) => client.id));
  for (const id of pinned.keys()) {
    if (!open.has(id)) pinned.delete(id);
  }
}

async function offline() {
  const name = await currentName();
  const cache = name ? await caches.open(name) : null;
  const page = cache ? await cache.match("/static/offline.html") : null;
  return page || new Response("<!doctype html><title>No connection</title><h1>No connection</h1><p>The game server cannot be reached.</p>", {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

async function fromShell(event) {
  const name = pinned.get(event.clientId) || (await currentName());
  if (name) {
    const cache = await caches.open(name);
    const hit = await cache.match(event.request, { ignoreSearch: true });
    if (hit) return hit;
    // A plain /static/<path> (the language catalogues, the offline page's script): the
    // kept shell holds it under its versioned address.
    const url = new URL(event.request.url);
    if (!/^\/static\/v[0-9a-f]+\//.test(url.pathname)) {
      const versioned = url.pathname.replace(/^\/static\//, `/static/v${name.slice(PREFIX.length)}/`);
      const kept = await cache.match(versioned);
      if (kept) {
        // Served from the network while it answers (a plain address is no-cache there).
        try {
          return await fetch(event.request);
        } catch {
          return kept;
        }
      }
    }
  }
  return fetch(event.request);
}
