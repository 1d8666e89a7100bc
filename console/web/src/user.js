// A user's page, where an admin works on one user: every role she holds,
// global and in each scope (grouped by scope, paged, with totals); adding
// and removing roles, global or in a scope; her effective permissions and
// why she holds each; where she may do something; renaming her. And the
// users list.
import { call, get, getPage, getCounted, seg, canWrite, natural } from './api.js';
import {
  html, useState, usePaged, List, Field, Status, Search, useAction, say, useDebounced, useField, useUnknownUser, focusSoon, fmt,
  href, pathText, unseen, PAGE, ROLES, PERMS, USERS, Bounds,
} from './ui.js';

export function UserLookup({ go, initial }) {
  const [u, setU] = useState(initial || '');
  return html`<form class="inline" onSubmit=${(e) => { e.preventDefault(); if (u.trim()) go(href('user', u.trim())); }}>
    <${Field} id="lookup-user" label="User" value=${u} onInput=${setU} required list=${USERS} />
    <button type="submit">Show user</button>
  </form>`;
}

// UsersPage lists the users that hold a membership (GET /api/users),
// narrowed by the names' start, and looks up any user by name.
export function UsersPage({ go }) {
  const [find, setFind] = useState('');
  const prefix = useDebounced(find);
  const p = usePaged((after) => getPage('users', { limit: PAGE, after, prefix }), (x) => x.user, [prefix]);
  return html`
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">Look up a user</h2>
      <${UserLookup} go=${go} />
    </section>
    <section aria-labelledby="users-h">
      <h2 id="users-h">Users holding a membership</h2>
      <${Search} id="find-user" label="Find users" value=${find} onInput=${setFind} list=${USERS} />
      <${List} p=${p} label="Users" id="users-list" counted=${['user', 'users']} prefix=${prefix} empty=${prefix ? 'No user starts with “' + prefix + '”.' : 'No user holds a membership.'}
        render=${(x) => html`<li key=${x.user} class="row"><a href=${href('user', x.user)}>${x.user}</a></li>`} />
    </section>`;
}

const where = (scope) => (scope ? 'in scope ' + scope : 'globally');

// why answers has_permission with ?explain=true, saying the question.
async function why(user, name, scope) {
  const r = await get('has_permission/' + seg(user) + '/' + seg(name), { scope, explain: 'true' });
  return r.result ? user + ' can ' + name + ' ' + where(scope) + ': yes, ' + pathText(r.grant) + '.'
    : user + ' cannot ' + name + ' ' + where(scope) + '.';
}

export function UserPage({ user, go }) {
  // changed reloads what a write on this page may change.
  const [tick, setTick] = useState(0);
  const changed = () => setTick((t) => t + 1);
  return html`
    <${UserLookup} go=${go} initial=${user} />
    <div class="cols">
      <${Check} user=${user} />
      <${WhereCan} user=${user} />
    </div>
    <${AddRole} user=${user} changed=${changed} />
    <div class="cols">
      <${GlobalRoles} user=${user} tick=${tick} changed=${changed} />
      <${ScopedRoles} user=${user} tick=${tick} changed=${changed} />
    </div>
    <${Effective} user=${user} tick=${tick} />
    <${Rename} user=${user} go=${go} />`;
}

// Check answers "can she P in S?" with why. The answer names its
// question, and is shown only while the form still asks it: typing
// another permission or scope clears it.
function Check({ user }) {
  const [perm, setPerm] = useField('check-perm');
  const [scope, setScope] = useField('user-scope');
  const [answer, setAnswer] = useState(null); // { perm, scope, text, yes }
  const a = useAction('check');
  const check = (e) => {
    e.preventDefault();
    const q = { perm: perm.trim(), scope: scope.trim() };
    setAnswer(null);
    a.run(async () => {
      const text = await why(user, q.perm, q.scope);
      setAnswer({ ...q, text, yes: text.includes(': yes') });
      focusSoon('#check-result');
    });
  };
  const shown = answer && answer.perm === perm.trim() && answer.scope === scope.trim() ? answer : null;
  return html`<section aria-labelledby="check-h">
    <h2 id="check-h">Can ${user} …?</h2>
    <form class="inline" onSubmit=${check}>
      <${Field} id="check-perm" label="Permission" value=${perm} onInput=${setPerm} required list=${PERMS}
        note=${unseen('perms', perm)} />
      <${Field} id="user-scope" label="Scope" value=${scope} onInput=${setScope} hint="Empty: globally (global memberships only)." />
      <button type="submit" disabled=${a.busy}>Check</button>
    </form>
    <${Status} owner="check" />
    <p id="check-result" tabindex="-1" role="status" aria-busy=${a.busy ? 'true' : 'false'}
      class=${shown ? (shown.yes ? 'yes' : 'no') : ''}>${a.busy ? 'Checking…' : shown ? shown.text : ''}</p>
  </section>`;
}

// WhereCan lists where the user holds a permission: globally, and the
// scopes (GET /api/where_can, paged, with its total).
function WhereCan({ user }) {
  const [perm, setPerm] = useField('where-perm');
  const [asked, setAsked] = useState('');
  const p = usePaged((after) => asked ? call('GET', 'where_can/' + seg(user) + '/' + seg(asked), { query: { limit: PAGE, after }, total: true })
    .then(({ data, total }) => ({ items: data.scopes.map((s) => ({ scope: s })), total, global: data.global }))
    .then((r) => { globalOf[user + '/' + asked] = r.global; return r; }) : Promise.resolve([]), (x) => x.scope, [user, asked]);
  const fresh = asked === perm.trim();
  const global = globalOf[user + '/' + asked];
  return html`<section aria-labelledby="where-h">
    <h2 id="where-h">Where can ${user} …?</h2>
    <form class="inline" onSubmit=${(e) => { e.preventDefault(); setAsked(perm.trim()); }}>
      <${Field} id="where-perm" label="Permission" value=${perm} onInput=${setPerm} required list=${PERMS} />
      <button type="submit">Where?</button>
    </form>
    ${asked && fresh && html`<div id="where-result">
      ${p.current && !p.error && html`<p class="answer">${global ? user + ' can ' + asked + ' globally, in every scope' + (p.total ? '; also granted in these scopes:' : '.')
        : p.total ? user + ' can ' + asked + ' in ' + fmt(p.total) + ' scope' + (p.total === 1 ? '' : 's') + ':'
          : user + ' cannot ' + asked + ' anywhere.'}</p>`}
      <${List} p=${p} label=${'Scopes where ' + user + ' can ' + asked} id="where-list" empty="" size=${PAGE}
        render=${(x) => html`<li key=${x.scope} class="row"><span class="scope">${x.scope}</span></li>`} />
    </div>`}
  </section>`;
}
const globalOf = {};

// AddRole adds a membership of the user, global or in a scope.
function AddRole({ user, changed }) {
  if (!canWrite()) return null;
  const [role, setRole] = useField('add-role');
  const [scope, setScope] = useField('add-role-scope');
  const a = useAction('user-roles');
  const add = (e) => {
    e.preventDefault();
    const r = role.trim(), s = scope.trim();
    a.run(async () => {
      await call('POST', 'membership/' + seg(user) + '/' + seg(r), { query: { scope: s } });
      setRole('');
      changed();
      focusSoon('#add-role');
      return user + ' is now a member of ' + r + ' ' + where(s) + '.';
    });
  };
  return html`<section aria-labelledby="addr-h">
    <h2 id="addr-h">Give ${user} a role</h2>
    <form class="inline" onSubmit=${add}>
      <${Field} id="add-role" label="Role" value=${role} onInput=${setRole} required list=${ROLES} note=${unseen('roles', role)} />
      <${Field} id="add-role-scope" label="Scope" value=${scope} onInput=${setScope} hint="Empty: a global membership, which holds in every scope." />
      <button type="submit" disabled=${a.busy}>Add role</button>
    </form>
    <${Status} owner="user-roles" />
  </section>`;
}

// remove is a membership's Remove: the focus goes to the next row's
// Remove, else the list's heading.
function removeButton(user, role, scope, changed, rm, heading) {
  if (!canWrite()) return null;
  const label = 'Remove ' + role + (scope ? ' in scope ' + scope : ' (global)');
  return html`<button type="button" class="danger" aria-label=${label} disabled=${rm.busy} onClick=${(e) => {
    const li = e.currentTarget.closest('li');
    const next = li && (li.nextElementSibling || li.previousElementSibling);
    rm.run(async () => {
      const r = await call('DELETE', 'membership/' + seg(user) + '/' + seg(role), { query: { scope: scope || undefined } });
      changed();
      const b = next && next.querySelector('button.danger');
      focusSoon(b || heading);
      return r.deleted ? user + ' is no longer a member of ' + role + ' ' + where(scope) + '.'
        : user + ' was already not a member of ' + role + ' ' + where(scope) + '.';
    });
  }}>Remove</button>`;
}

function GlobalRoles({ user, tick, changed }) {
  const p = usePaged((after) => getCounted('user_roles/' + seg(user), { limit: PAGE, after }), (x) => x.role, [user], true, PAGE, tick);
  const rm = useAction('user-roles');
  return html`<section aria-labelledby="uroles-h">
    <h2 id="uroles-h" tabindex="-1">Global roles${p.total !== null ? ' (' + fmt(p.total) + ')' : ''}</h2>
    <p class="hint">Held in every scope.</p>
    <${List} p=${p} label="Global roles of the user" id="user-roles" empty="Member of no role globally." render=${(x) => html`
      <li key=${x.role} class=${x.held === false ? 'row outside' : 'row'}><a href=${href('role', x.role)}>${x.role}</a>
        <${Bounds} x=${x} />
        ${removeButton(user, x.role, '', changed, rm, '#uroles-h')}</li>`} />
  </section>`;
}

// ScopedRoles lists the user's memberships in every scope (GET
// /api/scoped_memberships?user=), a page at a time, grouped by scope
// (scopes in natural order within the page: p2 before p10).
function ScopedRoles({ user, tick, changed }) {
  const p = usePaged((after) => getCounted('scoped_memberships', { user, limit: PAGE, after }),
    (m) => m.scope + '/' + m.user + '/' + m.role, [user], true, PAGE, tick);
  const rm = useAction('user-roles');
  const groups = new Map();
  for (const m of p.items) {
    if (!groups.has(m.scope)) groups.set(m.scope, []);
    groups.get(m.scope).push(m);
  }
  const scopes = [...groups.keys()].sort(natural);
  return html`<section aria-labelledby="scoped-roles-h">
    <h2 id="scoped-roles-h" tabindex="-1">Roles in scopes${p.total !== null ? ' (' + fmt(p.total) + ')' : ''}</h2>
    <p class="hint">Each holds in its scope only.</p>
    <${List} p=${{ ...p, items: scopes }} label="Scoped roles of the user" id="user-scoped" empty="Member of no role in any scope."
      render=${(s) => html`<li key=${s} class="group">
        <h3 class="scope-h">Scope ${s}</h3>
        <ul aria-label=${'Roles in scope ' + s}>${groups.get(s).sort((a, b) => natural(a.role, b.role)).map((m) => html`
          <li key=${m.role} class=${m.held === false ? 'row outside' : 'row'}><a href=${href('role', m.role)}>${m.role}</a>
            <${Bounds} x=${m} />
            ${removeButton(user, m.role, s, changed, rm, '#scoped-roles-h')}</li>`)}</ul></li>`} />
  </section>`;
}

// Effective lists the user's permissions in a scope (or globally), with
// a filter and the total; "Why?" says where each comes from.
function Effective({ user, tick }) {
  const [scope, setScope] = useField('perms-scope');
  const [shown, setShown] = useState('');
  const [find, setFind] = useState('');
  const prefix = useDebounced(find);
  const p = usePaged((after) => getCounted('user_permissions/' + seg(user), { limit: PAGE, after, scope: shown, prefix }),
    (x) => x.name, [user, shown, prefix], true, PAGE, tick);
  return html`<section aria-labelledby="uperms-h">
    <h2 id="uperms-h">Effective permissions ${where(shown)}${p.total !== null ? ' (' + fmt(p.total) + ')' : ''}</h2>
    <form class="inline" onSubmit=${(e) => { e.preventDefault(); setShown(scope.trim()); }}>
      <${Field} id="perms-scope" label="Scope" value=${scope} onInput=${setScope} hint="Empty: globally." />
      <button type="submit">Show scope</button>
    </form>
    <${Search} id="find-perm" label="Find permissions" value=${find} onInput=${setFind} list=${PERMS} />
    <${List} p=${p} label="Effective permissions of the user" id="user-perms" empty=${prefix ? 'None starts with “' + prefix + '”.' : 'No permissions.'}
      render=${(x) => html`<${WhyRow} key=${x.name + '/' + shown + '/' + tick} user=${user} name=${x.name} scope=${shown} />`} />
  </section>`;
}

// WhyRow is one permission with its "Why?": the answer stays beside it,
// for this permission in this scope (the row is new for another), and
// the focus stays on the button.
function WhyRow({ user, name, scope }) {
  const [text, setText] = useState('');
  return html`<li class="row wrap"><span class="name">${name}</span>
    <button type="button" aria-label=${'Why? ' + name} onClick=${async () => {
      setText('…');
      let t;
      try { t = await why(user, name, scope); } catch (e) { t = e.message; }
      setText(t);
    }}>Why?</button>
    ${text && html`<span class="why" role="status">${text}</span>`}</li>`;
}

// Rename moves every membership of the user to a new name (POST
// /api/user/{user}/rename/{new}); a name that holds memberships already
// is merged into only when asked.
function Rename({ user, go }) {
  if (!canWrite()) return null;
  const [to, setTo] = useField('rename-to');
  const [merge, setMerge] = useState(false);
  const a = useAction('rename');
  const submit = (e) => {
    e.preventDefault();
    const n = to.trim();
    a.run(async () => {
      const r = await call('POST', 'user/' + seg(user) + '/rename/' + seg(n), { query: { merge: merge ? 'true' : undefined } });
      const msg = user + ' renamed to ' + n + ': ' + r.moved + ' membership' + (r.moved === 1 ? '' : 's') + ' moved.';
      const to = href('user', n);
      go(to);
      // Said on the new name's page, once the navigation has cleared the old one's.
      setTimeout(() => say('rename', msg, 'ok', to), 50);
      return undefined;
    });
  };
  return html`<section aria-labelledby="rename-h">
    <h2 id="rename-h">Rename ${user}</h2>
    <form class="inline" onSubmit=${submit}>
      <${Field} id="rename-to" label="New name" value=${to} onInput=${setTo} required
        hint="Every membership, global and in every scope, moves to the new name; the audit log records the rename." />
      <div class="check"><input type="checkbox" id="rename-merge" checked=${merge} onChange=${(e) => setMerge(e.currentTarget.checked)} />
        <label for="rename-merge">Merge into a user who already has memberships</label></div>
      <button type="submit" disabled=${a.busy}>Rename</button>
    </form>
    <${Status} owner="rename" />
  </section>`;
}
