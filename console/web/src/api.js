// The console's only way to the server: rolegate's public REST API, with
// the client key as a bearer token, or, without a key, as the person the
// host's own session says (AUTH_ADMIN_USERS: the host's cookie or its
// proxy's header go along, as with any same-origin request). The key
// lives in this tab's sessionStorage, never in a URL or a cookie.

import { learn } from './names.js';

const KEY = 'rolegate.console.key';

// The mount point: the console is served at <mount>/console/, the API at
// <mount>/api/.
// Only the last "console/" counts: a mount may itself contain "console/".
const base = location.pathname.replace(/console\/[^/]*$/, '');

export const storedKey = () => sessionStorage.getItem(KEY) || '';
export const storeKey = (k) => sessionStorage.setItem(KEY, k);
export const forgetKey = () => sessionStorage.removeItem(KEY);

// What the signed-in caller may do (GET /api/whoami): a key, or a person
// with rolegate.admin, may write; one with rolegate.read only reads.
let writes = true;
export const canWrite = () => writes;
export const setCanWrite = (w) => { writes = w; };

// probeSession asks, without a key, who the host's session says is
// signed in: GET /api/whoami's data, or null when nobody is (401) or
// people are not enabled.
export async function probeSession() {
  try {
    const res = await fetch(new URL(base + 'api/whoami', location.origin), {
      headers: { Accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store', referrerPolicy: 'no-referrer',
    });
    if (!res.ok) return null;
    const env = await res.json();
    return env && env.success === true && env.data && env.data.user ? env.data : null;
  } catch {
    return null;
  }
}

export class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

let onUnauthorized = () => {};
export const setUnauthorizedHandler = (f) => { onUnauthorized = f; };

// onWait is told of a 429's wait before the one retry (the header shows
// it, so a slow answer is not a silent one).
let onWait = () => {};
export const setWaitHandler = (f) => { onWait = f; };

// seg escapes a name for one path segment.
export const seg = encodeURIComponent;

// call sends one request and returns the envelope's data; a failure throws
// an APIError carrying the envelope's message (and its detail). With
// total, it returns { data, total }: total is the list's X-Total-Count
// (the entries matching the request, whatever the page), null when the
// route sends none.
export async function call(method, path, { query, body, key, total } = {}) {
  // "." and ".." are valid names, but a URL parser resolves them as path
  // segments whatever their escaping (".%2E" too): "role/x/inherits/.."
  // would leave as "role/x/", which a trailing-slash redirect turns into
  // the role itself. Such a request is never sent.
  if (path.split('/').some((s) => s === '.' || s === '..')) {
    throw new APIError(400, 'The names "." and ".." cannot be sent in a URL path from a browser (it would reach another route); use rolegatectl or the REST API');
  }
  const url = new URL(base + 'api/' + path, location.origin);
  for (const [k, v] of Object.entries(query || {})) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  }
  const bearer = key ?? storedKey();
  const headers = { Accept: 'application/json' };
  // Without a key, the request is the signed-in person's: the host's
  // session (its cookie, or its proxy's header) goes along, and nothing
  // else; with one, no cookie does.
  if (bearer) headers.Authorization = 'Bearer ' + bearer;
  const init = { method, headers, credentials: bearer ? 'omit' : 'same-origin', cache: 'no-store', referrerPolicy: 'no-referrer' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(url, init);
    } catch (e) {
      throw new APIError(0, 'The server cannot be reached (' + e.message + ')');
    }
    // A 429 (open mode's rates) says when to come back: wait that long
    // (at most 10 s) and try once more; a second 429 is the answer.
    if (res.status !== 429 || attempt > 0) break;
    const wait = Math.min(10, Math.max(0, Number(res.headers.get('Retry-After')) || 1));
    onWait(wait);
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
  let env = null;
  try {
    env = await res.json();
  } catch {
    // not an envelope
  }
  if (!res.ok || !env || env.success !== true) {
    let msg = env && env.message ? env.message : res.status + ' ' + res.statusText;
    if (env && env.error && env.error !== env.message) msg += ': ' + env.error;
    if (res.status === 429) msg = 'The server is busy (429), even after waiting as it asked: ' + msg;
    if (res.status === 401 && key === undefined) onUnauthorized(msg);
    throw new APIError(res.status, msg);
  }
  if (total) {
    const h = res.headers.get('X-Total-Count');
    const n = h === null || h === '' ? NaN : Number(h);
    return { data: env.data, total: Number.isSafeInteger(n) && n >= 0 ? n : null };
  }
  return env.data;
}

// get reads, and keeps the names of the answer for the suggestions.
export async function get(path, query) {
  const data = await call('GET', path, { query });
  learn(data);
  return data;
}

// getPage reads one page of a list route that reports its total (GET
// /api/roles, /api/users; the others with ?total=true): { items, total }
// for usePaged.
export async function getPage(path, query) {
  const { data, total } = await call('GET', path, { query, total: true });
  learn(data);
  return { items: data, total };
}

// getCounted is getPage for the lists that count only when asked.
export const getCounted = (path, query) => getPage(path, { ...query, total: 'true' });

// natural compares names as people read them: p2 before p10.
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'variant' });
export const natural = (a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
