/*
 * The point of sale's service worker (ADR 085), registered by /pos with the scope /pos. It keeps
 * the app shell so the keypad opens offline: the /pos page (network first, the kept copy when
 * offline) and the build's hashed files under /assets/ (kept for good: a new build has new names).
 * It never answers /trpc or /api: an invoice, its status and the sales always come from the server.
 */
const CACHE = 'quern-pos-v1';
const PAGE = '/pos';

const isAppFile = (url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/');

async function keepPageAndItsFiles() {
  const cache = await caches.open(CACHE);
  const response = await fetch(PAGE, { cache: 'no-store' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(PAGE, response);
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
  await cache.addAll([...new Set(files)]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(keepPageAndItsFiles().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((name) => name.startsWith('quern-pos-') && name !== CACHE).map((name) => caches.delete(name))),
      )
      .then(() => self.clients.claim()),
  );
});

// The page lists the chunks it loaded before this worker controlled it (lazy pages, translations).
self.addEventListener('message', (event) => {
  const data = event.data;
  if (data?.type !== 'cache-app-files' || !Array.isArray(data.files)) return;
  const files = data.files.filter((file) => typeof file === 'string' && isAppFile(new URL(file, self.location.origin)));
  event.waitUntil(
    caches.open(CACHE).then((cache) => Promise.all(files.map((file) => cache.match(file).then((hit) => hit ?? cache.add(file))))),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && url.pathname.replace(/\/+$/, '') === PAGE) {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put(PAGE, copy));
          }
          return response;
        })
        .catch(() => caches.match(PAGE).then((hit) => hit ?? Response.error())),
    );
    return;
  }
  if (isAppFile(url)) {
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
  // Everything else, /trpc and /api above all, goes to the network untouched.
});
