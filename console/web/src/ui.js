// Shared pieces: the paged list hook, forms, messages.
import { html } from 'htm/preact';
import { useState, useEffect, useCallback, useRef } from 'preact/hooks';

export { html, useState, useEffect, useCallback, useRef };

export const PAGE = 50;

// usePaged loads one page at a time through load(cursor) (undefined: the
// first page); cursorOf(item) is the cursor after that item. Only the
// cursors of earlier pages are kept, never the entries. When deps change,
// it starts again from the first page.
export function usePaged(load, cursorOf, deps) {
  const key = JSON.stringify(deps);
  const [nav, setNav] = useState({ key, cursors: [undefined] });
  const cursors = nav.key === key ? nav.cursors : [undefined];
  const [state, setState] = useState({ items: [], loading: true, error: '' });
  const [tick, setTick] = useState(0);
  const cursor = cursors[cursors.length - 1];
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load(cursor).then(
      (items) => live && setState({ items: items || [], loading: false, error: '' }),
      (e) => live && setState({ items: [], loading: false, error: e.message }),
    );
    return () => { live = false; };
  }, [key, cursor, tick]);
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

export function Pager({ p, label }) {
  if (!p.hasPrev && !p.hasNext) return null;
  return html`<nav class="pager" aria-label=${label + ' pages'}>
    <button type="button" onClick=${p.prev} disabled=${!p.hasPrev}>Previous page</button>
    <span>Page ${p.page}</span>
    <button type="button" onClick=${p.next} disabled=${!p.hasNext}>Next page</button>
  </nav>`;
}

export function ErrorText({ text, id }) {
  return text ? html`<p class="error" role="alert" id=${id}>${text}</p>` : null;
}

// Field is a labelled input.
export function Field({ id, label, value, onInput, required, placeholder, type, hint, list }) {
  return html`<div class="field">
    <label for=${id}>${label}${required ? '' : html` <span class="opt">(optional)</span>`}</label>
    <input id=${id} name=${id} type=${type || 'text'} value=${value} required=${required} placeholder=${placeholder}
      list=${list} autocomplete="off" spellcheck=${false} aria-describedby=${hint ? id + '-hint' : undefined}
      onInput=${(e) => onInput(e.currentTarget.value)} />
    ${hint && html`<small id=${id + '-hint'}>${hint}</small>`}
  </div>`;
}

// useAction runs an async action and keeps its error message.
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = useCallback(async (f) => {
    setBusy(true);
    setError('');
    try {
      return await f();
    } catch (e) {
      setError(e.message);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, setError };
}

// List renders a paged list with a message when empty.
export function List({ p, label, empty, render, id }) {
  return html`<div class="list" id=${id} aria-busy=${p.loading}>
    <${ErrorText} text=${p.error} />
    ${!p.loading && !p.error && p.items.length === 0 && html`<p class="empty">${empty}</p>`}
    ${p.items.length > 0 && html`<ul aria-label=${label}>${p.items.map(render)}</ul>`}
    <${Pager} p=${p} label=${label} />
  </div>`;
}

export const href = (...parts) => '#/' + parts.map(encodeURIComponent).join('/');

// pathText describes a grant path of has_permission?explain=true.
export function pathText(g) {
  const where = g.scope ? 'in scope “' + g.scope + '”' : 'globally';
  const chain = g.chain.length > 1 ? ', which inherits along ' + g.chain.join(' → ') : '';
  return 'member of ' + g.membership + ' ' + where + chain + '; granted to ' + g.granted_by;
}
