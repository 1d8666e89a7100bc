// Shared pieces: the paged list hook, forms, messages.
import { html } from 'htm/preact';
import { useState, useEffect, useCallback, useRef } from 'preact/hooks';
import { known, subscribe } from './names.js';
import { natural, call } from './api.js';

export { html, useState, useEffect, useCallback, useRef };

export const PAGE = 50;

// usePaged loads one page at a time through load(cursor) (undefined: the
// first page); cursorOf(item) is the cursor after that item. Only the
// cursors of earlier pages are kept, never the entries. When deps change,
// it starts again from the first page. While enabled is false nothing is
// loaded (a section whose role does not exist, or that is folded). load
// returns the page's entries, or { items, total } (getPage) when the list
// reports its total, which is then p.total (null when unknown).
//
// Every answer is tied to its question (deps and page): the moment the
// question changes, the old entries are gone and the list says it is
// loading, so an answer is never shown under another question's label.
// A reload of the same question (after a write: reloadOn, or reload())
// keeps what is shown, marked busy, until the new answer replaces it, so
// the rows (and the focus in them) stay.
export function usePaged(load, cursorOf, deps, enabled = true, size = PAGE, reloadOn = 0) {
  const key = JSON.stringify(deps);
  const [nav, setNav] = useState({ key, cursors: [undefined] });
  const cursors = nav.key === key ? nav.cursors : [undefined];
  const [ownTick, setTick] = useState(0);
  // reloadOn: a count the page raises after a write; the same question
  // asked again.
  const tick = ownTick + reloadOn;
  const cursor = cursors[cursors.length - 1];
  const question = JSON.stringify([key, cursors.length, cursor ?? null, enabled]);
  const [state, setState] = useState({ question: '', tick: -1, items: [], total: null, error: '' });
  useEffect(() => {
    if (!enabled) {
      setState({ question, tick, items: [], total: null, error: '' });
      return undefined;
    }
    let live = true;
    load(cursor).then(
      (r) => live && setState(Array.isArray(r) || !r
        ? { question, tick, items: r || [], total: null, error: '' }
        : { question, tick, items: r.items || [], total: r.total ?? null, error: '' }),
      (e) => live && setState({ question, tick, items: [], total: null, error: e.message }),
    );
    return () => { live = false; };
  }, [question, tick]);
  const current = state.question === question;
  const items = current ? state.items : [];
  const loading = !current || state.tick !== tick;
  return {
    items, loading, current,
    total: current ? state.total : null,
    error: current ? state.error : '',
    page: cursors.length,
    hasNext: current && items.length >= size,
    hasPrev: cursors.length > 1,
    next: () => items.length && setNav({ key, cursors: [...cursors, cursorOf(items[items.length - 1])] }),
    prev: () => setNav({ key, cursors: cursors.slice(0, -1) }),
    reload: () => setTick((t) => t + 1),
  };
}

// Pager moves between pages; total (when known) is the number of entries,
// shown as "Page N of M".
export function Pager({ p, label, total, size = PAGE }) {
  if (!p.hasPrev && !p.hasNext) return null;
  const pages = total > 0 ? Math.max(1, Math.ceil(total / size)) : 0;
  return html`<nav class="pager" aria-label=${label + ' pages'}>
    <button type="button" onClick=${p.prev} disabled=${!p.hasPrev}>Previous page</button>
    <span>Page ${p.page}${pages ? ' of ' + pages : ''}</span>
    <button type="button" onClick=${p.next} disabled=${!p.hasNext}>Next page</button>
  </nav>`;
}

export function ErrorText({ text, id }) {
  return text ? html`<p class="error" role="alert" id=${id}>${text}</p>` : null;
}

// Field is a labelled input; list names a <datalist> of suggestions
// (ROLES, PERMS or USERS), and note is a remark under it (a name not seen).
export function Field({ id, label, value, onInput, required, placeholder, type, hint, list, note }) {
  const described = [hint && id + '-hint', note && id + '-new'].filter(Boolean).join(' ');
  return html`<div class="field">
    <label for=${id}>${label}${required ? '' : html` <span class="opt">(optional)</span>`}</label>
    <input id=${id} name=${id} type=${type || 'text'} value=${value} required=${required} placeholder=${placeholder}
      list=${list} autocomplete="off" spellcheck=${false} aria-describedby=${described || undefined}
      onInput=${(e) => onInput(e.currentTarget.value)} />
    ${hint && html`<small id=${id + '-hint'}>${hint}</small>`}
    ${note && html`<small class="note" id=${id + '-new'}>${note}</small>`}
  </div>`;
}

// The suggestion lists, rendered once by Suggestions.
export const ROLES = 'known-roles', PERMS = 'known-perms', USERS = 'known-users';

export function Suggestions() {
  const [, setN] = useState(0);
  useEffect(() => subscribe(() => setN((n) => n + 1)), []);
  const opts = (set) => [...set].sort(natural).map((v) => html`<option key=${v} value=${v} />`);
  return html`<datalist id=${ROLES}>${opts(known.roles)}</datalist>
    <datalist id=${PERMS}>${opts(known.perms)}</datalist>
    <datalist id=${USERS}>${opts(known.users)}</datalist>`;
}

// unseen is the note of a name field whose value is not among the names
// seen so far: a typo shows before it creates something.
export function unseen(kind, value) {
  const v = value.trim();
  if (!v || known[kind].has(v)) return '';
  const what = { perms: 'permission', roles: 'role', users: 'user' }[kind];
  return '“' + v + '” is not a ' + what + ' name seen so far: check the spelling.';
}

// The page's one message: set by the action that caused it, shown beside
// that action (Status with the same owner), replaced by the next one and
// cleared on every navigation.
let message = { owner: '', text: '', kind: '', at: '' };
const listeners = new Set();

// say sets the page's message; at is the page (the address) it belongs
// to, the current one unless the action that caused it started on another.
export function say(owner, text, kind = 'ok', at = location.hash) {
  message = { owner, text, kind, at };
  listeners.forEach((f) => f());
}

export const clearStatus = () => say('', '', '');

// Status shows the page's message when owner caused it: a status for a
// success, an alert for an error. Its id is owner + '-status'.
export function Status({ owner }) {
  const [, setN] = useState(0);
  useEffect(() => {
    const f = () => setN((n) => n + 1);
    listeners.add(f);
    return () => listeners.delete(f);
  }, []);
  const m = message.owner === owner && message.at === location.hash ? message : null;
  const text = m ? m.text : '';
  const kind = m ? m.kind : '';
  return html`<p id=${owner + '-status'} class=${'msg ' + kind} role=${kind === 'error' ? 'alert' : 'status'}
    aria-live=${kind === 'error' ? 'assertive' : 'polite'}>${text}</p>`;
}

// useAction runs an async action. With an owner, the message f returns
// (or the error) becomes the page's message, shown by Status of that
// owner; without one, the error is kept in error (a dialog's own).
// An action's message belongs to the page it was started on: one that
// ends after the admin moved on (to another role, say) is dropped, never
// shown on the next page.
export function useAction(owner) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const live = useRef(true);
  useEffect(() => () => { live.current = false; }, []);
  const run = useCallback(async (f) => {
    const at = location.hash;
    setBusy(true);
    setError('');
    const here = () => live.current && location.hash === at;
    try {
      const msg = await f();
      if (owner && typeof msg === 'string' && here()) say(owner, msg, 'ok', at);
      return msg;
    } catch (e) {
      if (!here()) return undefined;
      if (owner) say(owner, e.message, 'error', at);
      else setError(e.message);
      return undefined;
    } finally {
      if (live.current) setBusy(false);
    }
  }, [owner]);
  return { busy, error, run, setError };
}

// List renders a paged list with a message when empty. total is the
// number of entries when the page knows it otherwise, else the list's own
// (p.total); counted, [one, many], names the entries ("role", "roles") to
// say how many there are, and prefix what they start with.
// A failed list says why and offers Retry; one that is loading says so
// (and shows nothing of another question meanwhile).
export function List({ p, label, empty, render, id, total, counted, prefix, size }) {
  const n = total !== undefined && total !== null ? total : p.total;
  const shown = n !== null && n !== undefined && !p.error && p.current;
  return html`<div class="list" id=${id} aria-busy=${p.loading ? 'true' : 'false'}>
    ${p.error && html`<div class="failed"><p class="error" role="alert">${p.error}</p>
      <button type="button" class="retry" onClick=${p.reload}>Retry</button></div>`}
    ${counted && shown && n > 0 && html`<p class="count" id=${id + '-count'}>${fmt(n)} ${n === 1 ? counted[0] : counted[1]}${prefix ? ' starting with “' + prefix + '”' : ''}</p>`}
    ${p.loading && p.items.length === 0 && !p.error && html`<p class="loading">Loading…</p>`}
    ${!p.loading && !p.error && p.items.length === 0 && html`<p class="empty">${empty}</p>`}
    ${p.items.length > 0 && html`<ul aria-label=${label}>${p.items.map(render)}</ul>`}
    <${Pager} p=${p} label=${label} total=${n} size=${size} />
  </div>`;
}

// fmt writes a count with its thousands separated.
export const fmt = (n) => Number(n).toLocaleString('en');

export const href = (...parts) => '#/' + parts.map(encodeURIComponent).join('/');

// when writes a bound for a person: the weekday and time within the
// week around now ("Fri 18:00"), else the date and time, in the browser's
// time zone ("2030-01-11 18:00").
export function when(iso, now = Date.now()) {
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, '0');
  const hm = pad(d.getHours()) + ':' + pad(d.getMinutes());
  if (Math.abs(d - now) < 6 * 864e5) return d.toLocaleDateString('en-GB', { weekday: 'short' }) + ' ' + hm;
  return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' + hm;
}

// boundsText is a membership's or grant's time bounds in words ("from Mon
// 09:00, until Fri 18:00"); "" for none.
export function boundsText(x) {
  return [x.starts_at && 'from ' + when(x.starts_at), x.expires_at && 'until ' + when(x.expires_at)].filter(Boolean).join(', ');
}

// Bounds shows a list row's time bounds, and a row outside its window
// (held false: not started yet, or expired and not yet removed) as not
// held now. Nothing for a row without bounds.
export function Bounds({ x }) {
  const text = boundsText(x);
  if (!text) return null;
  const full = [x.starts_at && 'from ' + x.starts_at, x.expires_at && 'until ' + x.expires_at].filter(Boolean).join(', ');
  return html`<span class=${x.held === false ? 'bounds outside' : 'bounds'} title=${full}>${text}${x.held === false ? ' · not held now' : ''}</span>`;
}

// pathText describes a grant path of has_permission?explain=true.
export function pathText(g) {
  const where = g.scope ? 'in scope “' + g.scope + '”' : 'globally';
  const chain = g.chain.length > 1 ? ', which inherits along ' + g.chain.join(' → ') : '';
  const mb = g.membership_bounds ? ' (' + boundsText(g.membership_bounds) + ')' : '';
  const gb = g.grant_bounds ? ' (' + boundsText(g.grant_bounds) + ')' : '';
  return 'member of ' + g.membership + ' ' + where + mb + chain + '; granted to ' + g.granted_by + gb;
}

// Search is a box that narrows a list to the names starting with what is
// typed (?prefix= of the list route), applied as one types.
export function Search({ id, label, value, onInput, list }) {
  return html`<div class="search" role="search">
    <${Field} id=${id} label=${label} value=${value} onInput=${onInput} list=${list} type="search"
      hint="Names starting with this text; empty: all." />
  </div>`;
}

// useDebounced is value once it has stayed the same for ms.
export function useDebounced(value, ms = 250) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

// Drafts: what was typed in the page's fields when a sign-in ended (a
// revoked key, an expired session), kept in this tab until the page is
// shown again after signing in, where useField gives it back.
const DRAFTS = 'rolegate.console.drafts';

export function saveDrafts() {
  const values = {};
  document.querySelectorAll('main input[id]:not([type=password]):not([type=search])').forEach((e) => {
    if (e.value) values[e.id] = e.value;
  });
  if (Object.keys(values).length) sessionStorage.setItem(DRAFTS, JSON.stringify({ at: location.hash, values }));
}

function takeDraft(id) {
  let d;
  try { d = JSON.parse(sessionStorage.getItem(DRAFTS) || 'null'); } catch { d = null; }
  if (!d || d.at !== location.hash || !(id in d.values)) return undefined;
  const v = d.values[id];
  delete d.values[id];
  if (Object.keys(d.values).length) sessionStorage.setItem(DRAFTS, JSON.stringify(d));
  else sessionStorage.removeItem(DRAFTS);
  return v;
}

// useField is useState for the field with id, starting from its draft.
export function useField(id, init = '') {
  return useState(() => takeDraft(id) ?? init);
}

// focusSoon moves the focus to the element matching sel once the next
// render has put it there (after an action, into a dialog).
export function focusSoon(sel) {
  setTimeout(() => {
    const e = typeof sel === 'string' ? document.querySelector(sel) : sel;
    if (e && e.isConnected) e.focus();
  }, 0);
}

// useUnknownUser says, for a user name being typed, whether it holds no
// membership yet (GET /api/users?prefix=NAME&limit=1): a typo shows
// before it becomes a membership of nobody. The answer is tied to the
// name it was asked for and to tick, which the page moves when it adds a
// membership: the name just added, typed again, is asked about afresh,
// not answered from before it held one.
export function useUnknownUser(value, tick = 0) {
  const v = useDebounced(value.trim(), 300);
  const [a, setA] = useState({ name: '', tick: 0, unknown: false });
  useEffect(() => {
    if (!v) return undefined;
    let live = true;
    call('GET', 'users', { query: { prefix: v, limit: 1 } }).then(
      (d) => live && setA({ name: v, tick, unknown: !(d.length && d[0].user === v) }),
      () => live && setA({ name: v, tick, unknown: false }),
    );
    return () => { live = false; };
  }, [v, tick]);
  return a.name === value.trim() && a.tick === tick && a.unknown
    ? '“' + a.name + '” holds no membership yet: check the spelling (a new user is fine).' : '';
}
