// follow reads a match's event stream (Server-Sent Events) with fetch, so
// that the secret travels in the Authorization header, and comes back by
// itself when the stream breaks or the server restarts: with Last-Event-ID,
// it misses nothing and is told nothing twice.
import { API } from "./api.js";

// follow calls onMatch with the match after every move, onEnd when it
// ends, and onState with "live", "reconnecting" or "refused" (and why).
export function follow(id, secret, { onMatch, onEnd, onState }) {
  let last = null;
  let stopped = false;
  let ctrl = null;
  let wait = 250;

  async function once() {
    ctrl = new AbortController();
    const headers = { Accept: "text/event-stream" };
    if (secret) headers.Authorization = "Bearer " + secret;
    if (last !== null) headers["Last-Event-ID"] = String(last);
    const r = await fetch(`${API}/matches/${id}/events`, { headers, signal: ctrl.signal, cache: "no-store", credentials: "omit" });
    if (!r.ok) {
      let msg = `${r.status}`;
      try { msg = (await r.json()).error.message; } catch { /* not JSON */ }
      if (r.status >= 400 && r.status < 500 && r.status !== 429) {
        stopped = true;
        onState("refused", msg);
      }
      return;
    }
    onState("live");
    wait = 250;
    const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
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
        if (stopped) return;
      }
      if (stopped) return;
      onState("reconnecting");
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, 4000);
    }
  })();

  return {
    close() { stopped = true; if (ctrl) ctrl.abort(); },
    get last() { return last; },
  };
}
