// The API of arbiter serve (docs/api.md), as the pages call it.

export const API = "/api/v1";

// patience bounds how a page waits out a server that asks it to: a call
// answered 503 (its database cannot be reached for now, or it holds its
// most of records sent to be viewed) or 429 (too many calls a second),
// with how long to wait, is sent again after that wait (at most waitMost
// of it), at most retries more times and after no more than waitAll of
// waiting in all; then the page is told the last refusal, and says so.
// Nothing else is sent again: a refusal of what was asked (another 4xx)
// would be refused again. A call that may write and carries no
// Idempotency-Key is sent again after an "unavailable" only when the call
// says sending it twice does no more than once (again): the database may
// have stored it as it went away, its answer lost, and a match created
// twice is two matches.
export const patience = { retries: 6, waitMost: 10000, waitAll: 30000 };

// retryAfter returns how long, in milliseconds, an answer of status with
// headers and the error of its body asks to wait before the call is sent
// again: retry_after_ms, or Retry-After (seconds, or a date); null when
// it asks for no wait, or is not a 503 or a 429.
export function retryAfter(status, headers, error) {
  if (status !== 503 && status !== 429) return null;
  const ms = error && error.retry_after_ms;
  if (typeof ms === "number" && ms >= 0) return ms;
  const said = headers && headers.get("Retry-After");
  if (!said) return null;
  if (/^\s*\d+\s*$/.test(said)) return Number(said) * 1000;
  const at = Date.parse(said);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

// busyWords says, for people, why the server asked to wait: the code of
// its refusal.
export function busyWords(code) {
  if (code === "unavailable") return "it cannot reach its database for now";
  if (code === "too-many-uploads") return "it is reading as many records as it holds at once";
  if (code === "rate-limited") return "this page sent more than it allows a second";
  return "it asked to be called again later";
}

// waitWords tells a wait under way, as call's onWait gets it.
export function waitWords(w) {
  return `The server is busy (${busyWords(w.code)}); trying again in ${Math.max(1, Math.ceil(w.ms / 1000))} s…`;
}

// gaveUpWords tells that a call was given up (r.gaveUp, as call answers
// it): the server stayed busy through every try. Its first letter is a
// capital when it begins a sentence (start).
export function gaveUpWords(r, start = false) {
  const g = r.gaveUp;
  return `${start ? "T" : "t"}he server stayed busy (${busyWords(r.code)}) through ${g.tries} tries over ${Math.max(1, Math.round(g.waited / 1000))} s, and this page stopped trying`;
}

// call sends a request to the API and returns {status, ok, data, error}:
// data is the answer's JSON; error the refusal's message. A call the
// server asks to send again later is sent again, within patience, with
// the same body and Idempotency-Key (key: a move keeps its key, so that
// it is never made twice); onWait({ms, code, retry}) is told of each wait
// before it begins. A call that may write without a key is sent again
// after "unavailable" only with again (see patience). A call given up
// that way answers the last refusal, with gaveUp: {tries, waited}
// (milliseconds waited in all).
export async function call(method, path, { secret, body, raw, query, key, onWait, again } = {}) {
  const headers = { Accept: "application/json" };
  if (secret) headers.Authorization = "Bearer " + secret;
  if (key) headers["Idempotency-Key"] = key;
  let payload;
  if (raw !== undefined) {
    payload = raw;
    headers["Content-Type"] = "application/x-ndjson";
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  const url = API + path + (query ? "?" + new URLSearchParams(query) : "");
  const repeatable = key || again || method === "GET" || method === "HEAD";
  let waited = 0;
  for (let retry = 1; ; retry++) {
    const out = await once(url, { method, headers, body: payload });
    if (out.retryAfter === undefined) return out;
    const ms = Math.min(out.retryAfter, patience.waitMost);
    delete out.retryAfter;
    if (!repeatable && out.code === "unavailable") return out;
    if (retry > patience.retries || waited + ms > patience.waitAll) {
      out.gaveUp = { tries: retry, waited };
      return out;
    }
    if (onWait) onWait({ ms, code: out.code, retry });
    await new Promise((r) => setTimeout(r, ms));
    waited += ms;
  }
}

// once sends a request once: its answer as call returns it, with
// retryAfter (milliseconds) when the server asks to send it again then.
async function once(url, init) {
  let r;
  try {
    r = await fetch(url, { ...init, cache: "no-store", credentials: "omit" });
  } catch (e) {
    return { status: 0, ok: false, error: "the server cannot be reached (" + e.message + ")" };
  }
  let data = null;
  const text = await r.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  const out = { status: r.status, ok: r.ok, data };
  if (!r.ok) {
    const error = data && typeof data === "object" ? data.error : null;
    out.code = error?.code || "";
    out.error = error?.message || `${r.status} ${r.statusText}`;
    const wait = retryAfter(r.status, r.headers, error);
    if (wait !== null) out.retryAfter = wait;
  }
  return out;
}

// secretOf returns the secret a page was opened with for match id: from
// its link's fragment (#s=SECRET), kept for this tab in sessionStorage and
// taken out of the address and the history; or the one kept before.
export function secretOf(id) {
  const key = "arbiter:" + id;
  const m = /(?:^|[#&])s=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (m) {
    try { sessionStorage.setItem(key, m[1]); } catch { /* private mode: the page keeps it in memory */ }
    history.replaceState(null, "", location.pathname + location.search);
    return m[1];
  }
  try { return sessionStorage.getItem(key) || ""; } catch { return ""; }
}

// forget drops the secret kept for match id.
export function forget(id) {
  try { sessionStorage.removeItem("arbiter:" + id); } catch { /* nothing kept */ }
}
