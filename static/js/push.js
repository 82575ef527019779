// Web push on the notification settings page (notifications/push.py), a plain ES module.
// The member turns it on for this browser: the page registers the service worker (/sw.js),
// asks the browser's permission, subscribes with the site's public VAPID key and POSTs the
// subscription (refused because another account on this browser holds it, it subscribes
// afresh); turning it off unsubscribes the browser and tells the server. The panel
// says what this browser can do and where it stands, in a polite live region.

function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function post(url, body, csrf) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(answer.error || `the server answered ${response.status}`);
    error.taken = Boolean(answer.taken);
    throw error;
  }
  return answer;
}

export async function startPush(panel) {
  if (!panel) return;
  const status = panel.querySelector("[data-push-status]");
  const on = panel.querySelector("[data-push-on]");
  const off = panel.querySelector("[data-push-off]");
  const { key, subscribeUrl, unsubscribeUrl, csrf } = panel.dataset;
  const say = (words) => { status.textContent = words; };
  const draw = (subscribed) => {
    on.hidden = subscribed;
    off.hidden = !subscribed;
  };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("This browser cannot receive push notifications.");
    return;
  }
  let registration;
  try {
    registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch {
    say("Push notifications could not be set up in this browser.");
    return;
  }
  const current = await registration.pushManager.getSubscription();
  draw(Boolean(current));
  say(current ? "Push notifications are on in this browser." : "Push notifications are off in this browser.");

  on.addEventListener("click", async () => {
    on.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say("The browser did not allow notifications: nothing was turned on.");
        return;
      }
      const options = { userVisibleOnly: true, applicationServerKey: keyBytes(key) };
      const subscription = await registration.pushManager.subscribe(options);
      try {
        await post(subscribeUrl, subscription.toJSON(), csrf);
      } catch (error) {
        // Another account signed in on this browser holds this subscription (the server
        // never moves it): drop it here and subscribe afresh, a new endpoint for this
        // account; the old one answers "gone" to the site's next push and is forgotten.
        if (!error.taken) throw error;
        await subscription.unsubscribe();
        const fresh = await registration.pushManager.subscribe(options);
        await post(subscribeUrl, fresh.toJSON(), csrf);
      }
      draw(true);
      say("Push notifications are on in this browser.");
    } catch (error) {
      say(`Push notifications were not turned on: ${error.message}`);
    } finally {
      on.disabled = false;
    }
  });

  off.addEventListener("click", async () => {
    off.disabled = true;
    try {
      const subscription = await registration.pushManager.getSubscription();
      if (subscription) {
        await post(unsubscribeUrl, { endpoint: subscription.endpoint }, csrf);
        await subscription.unsubscribe();
      }
      draw(false);
      say("Push notifications are off in this browser.");
    } catch (error) {
      say(`Push notifications were not turned off: ${error.message}`);
    } finally {
      off.disabled = false;
    }
  });
}

startPush(document.querySelector("[data-push]"));
