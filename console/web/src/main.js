// rolegate's admin console: a single page over the public REST API.
import { render } from 'preact';
import { call, storedKey, storeKey, forgetKey, setUnauthorizedHandler, setWaitHandler, probeSession, setCanWrite } from './api.js';
import { html, useState, useEffect, useRef, Field, ErrorText, Suggestions, clearStatus, saveDrafts } from './ui.js';
import { RolesPage } from './roles.js';
import { RolePage } from './role.js';
import { UserPage, UsersPage } from './user.js';
import { MembersPage } from './members.js';
import { WhoCanPage, AuditPage } from './whocan.js';
import { DelegatedPage } from './delegated.js';

// route reads the hash: #/roles, #/role/<name>, #/members[/<scope>/<role>/<user>],
// #/user/<name>, #/whocan/<permission>[/<scope>], #/audit.
function route() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map((s) => {
    try { return decodeURIComponent(s); } catch { return ''; }
  });
  return { page: parts[0] || 'roles', arg: parts[1] || '', arg2: parts[2] || '', arg3: parts[3] || '' };
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
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). Each key is a namespace of its own, not a user: only AUTH_CLIENT_KEY's is the one the app's guards read. The key stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${busy}>Sign in</button>
    </form>
    <${ErrorText} text=${error} id="signin-error" />
  </main>`;
}

// Where: the namespace the console works in, the host's (which the app's
// guards read) or another key's, and who is signed in.
function Where({ me, person }) {
  if (!me) return null;
  const ns = me.host ? 'the app’s namespace' : 'another namespace (' + me.actor + '), not the app’s';
  return html`<span class="who" id="signed-in-as">${person
    ? html`Signed in as <strong>${me.user}</strong>${me.admin ? '' : me.read ? ' (read only)' : ''}`
    : 'Signed in with a client key'}<span class="ns" id="namespace"> · in ${ns}</span></span>`;
}

// Who is signed in: with a stored key, the key; else the person the
// host's session names (GET /api/whoami), when people are enabled.
function App() {
  const [signedIn, setSignedIn] = useState(!!storedKey());
  const [me, setMe] = useState(undefined); // undefined: not asked yet; null: nobody
  const [keyMe, setKeyMe] = useState(null); // whoami of the stored key
  const [reason, setReason] = useState('');
  const [r, setR] = useState(route());
  const [menu, setMenu] = useState(false);
  const [waiting, setWaiting] = useState(0);
  const h1 = useRef();
  const moved = useRef(false);
  useEffect(() => {
    const f = () => { moved.current = true; setR(route()); setMenu(false); clearStatus(); };
    addEventListener('hashchange', f);
    setUnauthorizedHandler((msg) => { saveDrafts(); forgetKey(); setReason(msg); setSignedIn(false); setMe(null); setKeyMe(null); });
    setWaitHandler((s) => { setWaiting(s); setTimeout(() => setWaiting(0), s * 1000); });
    return () => removeEventListener('hashchange', f);
  }, []);
  useEffect(() => {
    if (signedIn || me !== undefined) return;
    probeSession().then((m) => { setMe(m); });
  }, [signedIn, me]);
  useEffect(() => {
    if (!signedIn) return;
    call('GET', 'whoami').then((w) => setKeyMe(w), () => {});
  }, [signedIn]);
  // The heading takes the focus after a navigation, not on the first
  // load: the first Tab of a fresh page reaches "Skip to content".
  useEffect(() => { if (moved.current && h1.current) h1.current.focus(); }, [r.page, r.arg, r.arg2, r.arg3]);
  const person = !signedIn && me;
  const mayAdmin = signedIn || (person && (me.admin || me.read));
  if (!signedIn && me === undefined) return html`<main id="main"><p aria-busy="true">Loading…</p></main>`;
  if (!signedIn && (!me || (!mayAdmin && me.members.length === 0))) {
    return html`<${SignIn} reason=${reason} me=${me} onIn=${() => { setReason(''); setSignedIn(true); }} />`;
  }
  setCanWrite(signedIn || me.admin);
  const who = html`<${Where} me=${person ? me : keyMe} person=${!!person} />`;
  const out = person
    ? html`<button type="button" class="signout" onClick=${() => { setMe(null); setReason(''); }}>Use a client key</button>`
    : html`<button type="button" class="signout" onClick=${() => { forgetKey(); setSignedIn(false); setMe(undefined); setKeyMe(null); }}>Sign out</button>`;
  const busy = waiting > 0 && html`<span class="waiting" role="status">The server is busy: trying again in ${waiting} s…</span>`;
  if (!mayAdmin) {
    document.title = 'Your members · rolegate console';
    return html`
      <header>
        <span class="brand">rolegate</span>
        ${who}
        ${out}
        ${busy}
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
      page = html`<${MembersPage} scope=${r.arg} role=${r.arg2} user=${r.arg3} go=${go} />`;
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
    <header class=${menu ? 'open' : ''}>
      <span class="brand">rolegate</span>
      <button type="button" class="menu" aria-expanded=${menu ? 'true' : 'false'} aria-controls="console-nav"
        onClick=${() => setMenu(!menu)}>Menu</button>
      <nav aria-label="Console" id="console-nav">
        <ul>${NAV.map(([p, label]) => html`<li><a href=${'#/' + p} aria-current=${r.page === p ? 'page' : undefined}>${label}</a></li>`)}</ul>
      </nav>
      ${who}
      ${out}
      ${busy}
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${h1}>${title}</h1>
      <div key=${[r.page, r.arg, r.arg2, r.arg3].join('/')} class="page">${page}</div>
    </main>
    <${Suggestions} />`;
}

render(html`<${App} />`, document.getElementById('app'));
