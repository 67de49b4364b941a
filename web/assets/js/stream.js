// follow reads a match's event stream (Server-Sent Events) with fetch, so
// that the secret travels in the Authorization header, and comes back by
// itself when the stream breaks or the server restarts: with Last-Event-ID,
// it misses nothing and is told nothing twice. A stream that goes silent
// without breaking (a phone asleep, or gone from one network to another,
// keeps a connection that carries nothing) is taken for dead once it has
// said nothing for twice the server's keepalive period and more, or at
// once when the page is shown again or the device is back online after
// longer than that period. A server that answers 503 or 429 with how long
// to wait (its database out of reach for now) is asked again after that
// wait (at most patience.waitMost), not sooner.
import { API, patience, retryAfter } from "./api.js";

// follow calls onMatch with the match after every move, onEnd when it
// ends, and onState with "live", "reconnecting", "offline" (the device
// says it has no network), "busy" (the server asked to wait: the
// milliseconds until the stream is opened again) or "refused" (and why).
export function follow(id, secret, { onMatch, onEnd, onState }) {
  let last = null;
  let stopped = false;
  let ctrl = null;
  let wait = 250;
  let keepalive = 15000; // how often the server speaks on an idle stream, as it says
  let heard = 0; // when the stream last said anything (performance.now())
  let dog = null; // the timer that takes a silent stream for dead
  let wake = null; // ends the wait before the next try
  let told = null; // the wait the server asked for when it last refused the stream

  // listen notes that the stream spoke, and waits for it to speak again.
  function listen() {
    heard = performance.now();
    clearTimeout(dog);
    dog = setTimeout(() => { if (ctrl) ctrl.abort(); }, 2 * keepalive + 2000);
  }

  // check opens the stream again now if it has been silent for longer than
  // its keepalive period: the page is shown again, or the device is back
  // online.
  function check() {
    if (stopped) return;
    if (wake) wake();
    else if (ctrl && performance.now() - heard > keepalive + 2000) ctrl.abort();
  }
  const onVisible = () => { if (document.visibilityState === "visible") check(); };
  // A device that goes offline keeps its stream's connection, which can
  // carry nothing more: the stream is taken for dead at once, and not
  // called live until it is open again.
  const onOffline = () => { if (!stopped && ctrl) ctrl.abort(); };
  document.addEventListener("visibilitychange", onVisible);
  addEventListener("online", check);
  addEventListener("offline", onOffline);
  addEventListener("pageshow", check);

  async function once() {
    ctrl = new AbortController();
    const headers = { Accept: "text/event-stream" };
    if (secret) headers.Authorization = "Bearer " + secret;
    if (last !== null) headers["Last-Event-ID"] = String(last);
    listen();
    const r = await fetch(`${API}/matches/${id}/events`, { headers, signal: ctrl.signal, cache: "no-store", credentials: "omit" });
    const said = Number(r.headers.get("Arbiter-Keepalive-Ms"));
    if (said > 0) keepalive = said;
    listen();
    if (!r.ok) {
      let error = null;
      try { error = (await r.json()).error; } catch { /* not JSON */ }
      if (r.status >= 400 && r.status < 500 && r.status !== 429) {
        stopped = true;
        onState("refused", error?.message || `${r.status}`);
      }
      told = retryAfter(r.status, r.headers, error);
      return;
    }
    onState("live");
    wait = 250;
    const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      listen();
      buf += value;
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        if (dispatch(block)) {
          ctrl.abort();
          return;
        }
      }
    }
  }

  // dispatch handles one event; it returns "stop" when the stream ends for
  // good, "again" when it is to be opened again.
  function dispatch(block) {
    let event = "message", data = "", eid = null;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const val = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = val;
      else if (field === "data") data += (data ? "\n" : "") + val;
      else if (field === "id") eid = val;
    }
    if (event === "move") {
      if (eid !== null) last = Number(eid);
      onMatch(JSON.parse(data));
    } else if (event === "end") {
      stopped = true;
      if (onEnd) onEnd();
      return "stop";
    } else if (event === "shutdown" || event === "lost") {
      return "again";
    }
    return "";
  }

  (async () => {
    while (!stopped) {
      try {
        await once();
      } catch (e) {
        if (stopped) break;
      }
      clearTimeout(dog);
      if (stopped) break;
      // The server's wait, when it asked for one; else a wait that grows.
      const pause = told !== null ? Math.min(Math.max(told, wait), patience.waitMost) : wait;
      if (told !== null) onState("busy", pause);
      else onState(navigator.onLine === false ? "offline" : "reconnecting");
      told = null;
      await new Promise((r) => {
        const t = setTimeout(r, pause);
        wake = () => { clearTimeout(t); r(); };
      });
      wake = null;
      wait = Math.min(wait * 2, 4000);
    }
    clearTimeout(dog);
    document.removeEventListener("visibilitychange", onVisible);
    removeEventListener("online", check);
    removeEventListener("offline", onOffline);
    removeEventListener("pageshow", check);
  })();

  return {
    close() { stopped = true; if (ctrl) ctrl.abort(); if (wake) wake(); },
    get last() { return last; },
  };
}
