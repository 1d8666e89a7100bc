// rolegate's admin console: a single page over the public REST API.
import { render } from 'preact';
import { call, storedKey, storeKey, forgetKey, setUnauthorizedHandler, probeSession, setCanWrite } from './api.js';
import { html, useState, useEffect, useRef, Field, ErrorText, Suggestions, clearStatus } from './ui.js';
import { RolesPage } from './roles.js';
import { RolePage } from './role.js';
import { UserPage, MembersPage, UsersPage } from './user.js';
import { WhoCanPage, AuditPage } from './whocan.js';
import { DelegatedPage } from './delegated.js';

// route reads the hash: #/roles, #/role/<name>, #/members, #/user/<name>,
// #/whocan/<permission>[/<scope>], #/audit.
function route() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map((s) => {
    try { return decodeURIComponent(s); } catch { return ''; }
  });
  return { page: parts[0] || 'roles', arg: parts[1] || '', arg2: parts[2] || '' };
}

const NAV = [['roles', 'Roles'], ['members', 'Members'], ['user', 'Users'], ['whocan', 'Who can'], ['audit', 'Audit log']];

function SignIn({ onIn, reason, me }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(reason);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await call('GET', 'roles', { query: { limit: 1 }, key: key.trim() });
      storeKey(key.trim());
      onIn();
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="signin" id="main">
    <h1>rolegate console</h1>
    ${me && html`<p id="no-admin">You are signed in as <strong>${me.user}</strong>, who holds none of rolegate.admin, rolegate.read or rolegate.members. An admin key still works:</p>`}
    <form onSubmit=${submit}>
      <${Field} id="client-key" type="password" label="Client key" value=${key} onInput=${setKey} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). It stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${busy}>Sign in</button>
    </form>
    <${ErrorText} text=${error} id="signin-error" />
  </main>`;
}

// Who is signed in: with a stored key, the key; else the person the
// host's session names (GET /api/whoami), when people are enabled.
function App() {
  const [signedIn, setSignedIn] = useState(!!storedKey());
  const [me, setMe] = useState(undefined); // undefined: not asked yet; null: nobody
  const [reason, setReason] = useState('');
  const [r, setR] = useState(route());
  const h1 = useRef();
  useEffect(() => {
    const f = () => { setR(route()); clearStatus(); };
    addEventListener('hashchange', f);
    setUnauthorizedHandler((msg) => { forgetKey(); setReason(msg); setSignedIn(false); setMe(null); });
    return () => removeEventListener('hashchange', f);
  }, []);
  useEffect(() => {
    if (signedIn || me !== undefined) return;
    probeSession().then((m) => { setMe(m); });
  }, [signedIn, me]);
  useEffect(() => { if (h1.current) h1.current.focus(); }, [r.page, r.arg, signedIn, me]);
  const person = !signedIn && me;
  const mayAdmin = signedIn || (person && (me.admin || me.read));
  if (!signedIn && me === undefined) return html`<main id="main"><p aria-busy="true">Loading…</p></main>`;
  if (!signedIn && (!me || (!mayAdmin && me.members.length === 0))) {
    return html`<${SignIn} reason=${reason} me=${me} onIn=${() => { setReason(''); setSignedIn(true); }} />`;
  }
  setCanWrite(signedIn || me.admin);
  const who = person
    ? html`<span class="who" id="signed-in-as">Signed in as <strong>${me.user}</strong>${me.admin ? '' : me.read ? ' (read only)' : ''}</span>`
    : html`<span class="who" id="signed-in-as">Signed in with a client key</span>`;
  const out = person
    ? html`<button type="button" class="signout" onClick=${() => { setMe(null); setReason(''); }}>Use a client key</button>`
    : html`<button type="button" class="signout" onClick=${() => { forgetKey(); setSignedIn(false); setMe(undefined); }}>Sign out</button>`;
  if (!mayAdmin) {
    document.title = 'Your members · rolegate console';
    return html`
      <header>
        <span class="brand">rolegate</span>
        ${who}
        ${out}
      </header>
      <main id="main">
        <h1 tabindex="-1" ref=${h1}>Members you manage</h1>
        <div class="page"><${DelegatedPage} me=${me} /></div>
      </main>
      <${Suggestions} />`;
  }
  const go = (h) => { location.hash = h; };
  let title, page;
  switch (r.page) {
    case 'role':
      title = 'Role ' + r.arg;
      page = html`<${RolePage} role=${r.arg} />`;
      break;
    case 'members':
      title = 'Members';
      page = html`<${MembersPage} go=${go} />`;
      break;
    case 'user':
      title = r.arg ? 'User ' + r.arg : 'Users';
      page = r.arg ? html`<${UserPage} user=${r.arg} go=${go} />` : html`<${UsersPage} go=${go} />`;
      break;
    case 'whocan':
      title = r.arg ? 'Who can ' + r.arg : 'Who can';
      page = html`<${WhoCanPage} name=${r.arg} scope=${r.arg2} go=${go} />`;
      break;
    case 'audit':
      title = 'Audit log';
      page = html`<${AuditPage} />`;
      break;
    default:
      title = 'Roles';
      page = html`<${RolesPage} />`;
  }
  document.title = title + ' · rolegate console';
  // Each page starts afresh on every navigation (the key): nothing typed,
  // shown or answered on one page (a check, a scope) survives on the next.
  return html`
    <a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); h1.current && h1.current.focus(); }}>Skip to content</a>
    <header>
      <span class="brand">rolegate</span>
      <nav aria-label="Console">
        <ul>${NAV.map(([p, label]) => html`<li><a href=${'#/' + p} aria-current=${r.page === p ? 'page' : undefined}>${label}</a></li>`)}</ul>
      </nav>
      ${who}
      ${out}
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${h1}>${title}</h1>
      <div key=${r.page + '/' + r.arg + '/' + r.arg2} class="page">${page}</div>
    </main>
    <${Suggestions} />`;
}

render(html`<${App} />`, document.getElementById('app'));
