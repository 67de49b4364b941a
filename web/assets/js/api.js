// The API of arbiter serve (docs/api.md), as the pages call it.

export const API = "/api/v1";

// call sends a request to the API and returns {status, ok, data, error}:
// data is the answer's JSON; error the refusal's message.
export async function call(method, path, { secret, body, raw, query } = {}) {
  const headers = { Accept: "application/json" };
  if (secret) headers.Authorization = "Bearer " + secret;
  let payload;
  if (raw !== undefined) {
    payload = raw;
    headers["Content-Type"] = "application/x-ndjson";
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  const url = API + path + (query ? "?" + new URLSearchParams(query) : "");
  let r;
  try {
    r = await fetch(url, { method, headers, body: payload, cache: "no-store", credentials: "omit" });
  } catch (e) {
    return { status: 0, ok: false, error: "the server cannot be reached (" + e.message + ")" };
  }
  let data = null;
  const text = await r.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  const out = { status: r.status, ok: r.ok, data };
  if (!r.ok) {
    out.code = data?.error?.code || "";
    out.error = data?.error?.message || `${r.status} ${r.statusText}`;
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
