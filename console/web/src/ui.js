// Shared pieces: the paged list hook, forms, messages.
import { html } from 'htm/preact';
import { useState, useEffect, useCallback, useRef } from 'preact/hooks';
import { known, subscribe } from './names.js';

export { html, useState, useEffect, useCallback, useRef };

export const PAGE = 50;

// usePaged loads one page at a time through load(cursor) (undefined: the
// first page); cursorOf(item) is the cursor after that item. Only the
// cursors of earlier pages are kept, never the entries. When deps change,
// it starts again from the first page. While enabled is false nothing is
// loaded (a section whose role does not exist, or that is folded). load
// returns the page's entries, or { items, total } (getPage) when the list
// reports its total, which is then p.total (null when unknown).
export function usePaged(load, cursorOf, deps, enabled = true) {
  const key = JSON.stringify(deps);
  const [nav, setNav] = useState({ key, cursors: [undefined] });
  const cursors = nav.key === key ? nav.cursors : [undefined];
  const [state, setState] = useState({ items: [], total: null, loading: true, error: '' });
  const [tick, setTick] = useState(0);
  const cursor = cursors[cursors.length - 1];
  useEffect(() => {
    if (!enabled) {
      setState({ items: [], total: null, loading: false, error: '' });
      return undefined;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load(cursor).then(
      (r) => live && setState(Array.isArray(r) || !r
        ? { items: r || [], total: null, loading: false, error: '' }
        : { items: r.items || [], total: r.total ?? null, loading: false, error: '' }),
      (e) => live && setState({ items: [], total: null, loading: false, error: e.message }),
    );
    return () => { live = false; };
  }, [key, cursor, tick, enabled]);
  const items = state.items;
  return {
    ...state,
    page: cursors.length,
    hasNext: items.length >= PAGE,
    hasPrev: cursors.length > 1,
    next: () => items.length && setNav({ key, cursors: [...cursors, cursorOf(items[items.length - 1])] }),
    prev: () => setNav({ key, cursors: cursors.slice(0, -1) }),
    reload: () => setTick((t) => t + 1),
  };
}

// Pager moves between pages; total (when known) is the number of entries,
// shown as "Page N of M".
export function Pager({ p, label, total }) {
  if (!p.hasPrev && !p.hasNext) return null;
  const pages = total > 0 ? Math.max(1, Math.ceil(total / PAGE)) : 0;
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
  const opts = (set) => [...set].sort().map((v) => html`<option key=${v} value=${v} />`);
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
let message = { owner: '', text: '', kind: '' };
const listeners = new Set();

export function say(owner, text, kind = 'ok') {
  message = { owner, text, kind };
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
  const m = message.owner === owner ? message : null;
  const text = m ? m.text : '';
  const kind = m ? m.kind : '';
  return html`<p id=${owner + '-status'} class=${'msg ' + kind} role=${kind === 'error' ? 'alert' : 'status'}
    aria-live=${kind === 'error' ? 'assertive' : 'polite'}>${text}</p>`;
}

// useAction runs an async action. With an owner, the message f returns
// (or the error) becomes the page's message, shown by Status of that
// owner; without one, the error is kept in error (a dialog's own).
export function useAction(owner) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = useCallback(async (f) => {
    setBusy(true);
    setError('');
    try {
      const msg = await f();
      if (owner && typeof msg === 'string') say(owner, msg, 'ok');
      return msg;
    } catch (e) {
      if (owner) say(owner, e.message, 'error');
      else setError(e.message);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, [owner]);
  return { busy, error, run, setError };
}

// List renders a paged list with a message when empty. total is the
// number of entries when the page knows it otherwise, else the list's own
// (p.total); counted, [one, many], names the entries ("role", "roles") to
// say how many there are, and prefix what they start with.
export function List({ p, label, empty, render, id, total, counted, prefix }) {
  const n = total !== undefined ? total : p.total;
  return html`<div class="list" id=${id} aria-busy=${p.loading}>
    <${ErrorText} text=${p.error} />
    ${counted && !p.loading && !p.error && p.total > 0 && html`<p class="count" id=${id + '-count'}>${p.total} ${p.total === 1 ? counted[0] : counted[1]}${prefix ? ' starting with “' + prefix + '”' : ''}</p>`}
    ${!p.loading && !p.error && p.items.length === 0 && html`<p class="empty">${empty}</p>`}
    ${p.items.length > 0 && html`<ul aria-label=${label}>${p.items.map(render)}</ul>`}
    <${Pager} p=${p} label=${label} total=${n} />
  </div>`;
}

export const href = (...parts) => '#/' + parts.map(encodeURIComponent).join('/');

// pathText describes a grant path of has_permission?explain=true.
export function pathText(g) {
  const where = g.scope ? 'in scope “' + g.scope + '”' : 'globally';
  const chain = g.chain.length > 1 ? ', which inherits along ' + g.chain.join(' → ') : '';
  return 'member of ' + g.membership + ' ' + where + chain + '; granted to ' + g.granted_by;
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
