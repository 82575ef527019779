// The site's service worker (served at /sw.js, so its scope is every page): it shows the
// web push notifications the server sends (notifications/push.py: a title, the
// notification's text and the page to open, nothing hidden of a game) and opens that page
// when one is clicked, in a tab of the site already open if there is one.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "Cargo Connect";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag || undefined,
      renotify: Boolean(data.tag),
      icon: "/static/favicon.svg",
      data: { url: data.url || "/notifications/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin);
  if (target.origin !== self.location.origin) return; // only the site's own pages
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of open) {
        if (new URL(client.url).origin === target.origin && "navigate" in client) {
          await client.focus();
          return client.navigate(target.href);
        }
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});
