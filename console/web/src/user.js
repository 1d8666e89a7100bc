// A user's view: roles, effective permissions and "why"; and the members
// page: scoped memberships of every scope.
import { call, get, getPage, seg, canWrite } from './api.js';
import { html, useState, usePaged, List, Field, Status, Search, useAction, useDebounced, href, pathText, unseen, PAGE, ROLES, PERMS, USERS } from './ui.js';

export function UserLookup({ go, initial }) {
  const [u, setU] = useState(initial || '');
  return html`<form class="inline" onSubmit=${(e) => { e.preventDefault(); if (u) go(href('user', u)); }}>
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

// Why answers has_permission with ?explain=true.
async function why(user, name, scope) {
  const r = await get('has_permission/' + seg(user) + '/' + seg(name), { scope, explain: 'true' });
  return r.result ? user + ' can ' + name + ': yes, ' + pathText(r.grant) + '.' : user + ' cannot ' + name + (scope ? ' in scope ' + scope : '') + '.';
}

export function UserPage({ user, go }) {
  const [scope, setScope] = useState('');
  const [shown, setShown] = useState('');
  const roles = usePaged((after) => get('user_roles/' + seg(user), { limit: PAGE, after, scope: shown }), (x) => x.role, [user, shown]);
  const perms = usePaged((after) => get('user_permissions/' + seg(user), { limit: PAGE, after, scope: shown }), (x) => x.name, [user, shown]);
  const [perm, setPerm] = useState('');
  const [answer, setAnswer] = useState('');
  const [whys, setWhys] = useState({});
  const a = useAction('check');
  const check = (e) => {
    e.preventDefault();
    setAnswer('');
    a.run(async () => { setAnswer(await why(user, perm, shown)); });
  };
  return html`
    <${UserLookup} go=${go} initial=${user} />
    <form class="inline" onSubmit=${(e) => { e.preventDefault(); setShown(scope); }}>
      <${Field} id="user-scope" label="Scope" value=${scope} onInput=${setScope} hint="Empty: global memberships only." />
      <button type="submit">Apply scope</button>
    </form>
    <section aria-labelledby="check-h">
      <h2 id="check-h">Can ${user} …?</h2>
      <form class="inline" onSubmit=${check}>
        <${Field} id="check-perm" label="Permission" value=${perm} onInput=${setPerm} required list=${PERMS}
          note=${unseen('perms', perm)} />
        <button type="submit" disabled=${a.busy}>Check</button>
      </form>
      <${Status} owner="check" />
      <p id="check-result" role="status" class=${answer.includes(': yes') ? 'yes' : 'no'}>${answer}</p>
    </section>
    <div class="cols">
      <section aria-labelledby="uroles-h">
        <h2 id="uroles-h">Roles${shown ? ' in scope ' + shown : ''}</h2>
        <${List} p=${roles} label="Roles of the user" id="user-roles" empty="Member of no role." render=${(x) => html`
          <li key=${x.role + '/' + (x.scope || '')} class="row"><a href=${href('role', x.role)}>${x.role}</a>
            ${shown && html`<span class=${x.scope ? 'scope' : 'scope global'}>${x.scope ? 'in scope ' + x.scope : 'global'}</span>`}</li>`} />
      </section>
      <section aria-labelledby="uperms-h">
        <h2 id="uperms-h">Effective permissions</h2>
        <${List} p=${perms} label="Effective permissions of the user" id="user-perms" empty="No permissions." render=${(x) => html`
          <li key=${x.name} class="row wrap"><span class="name">${x.name}</span>
            <button type="button" aria-label=${'Why can ' + user + ' ' + x.name + '?'}
              onClick=${async () => {
                let t;
                try { t = await why(user, x.name, shown); } catch (e) { t = e.message; }
                setWhys({ ...whys, [x.name]: t });
              }}>Why?</button>
            ${whys[x.name] && html`<span class="why" role="status">${whys[x.name]}</span>`}</li>`} />
      </section>
    </div>`;
}

export function MembersPage({ go }) {
  const p = usePaged((after) => get('scoped_memberships', { limit: PAGE, after }),
    (m) => m.scope + '/' + m.user + '/' + m.role, []);
  const [user, setUser] = useState('');
  const [role, setRole] = useState('');
  const [scope, setScope] = useState('');
  const a = useAction('add-membership');
  const rm = useAction('scoped');
  const add = (e) => {
    e.preventDefault();
    a.run(async () => {
      await call('POST', 'membership/' + seg(user) + '/' + seg(role), { query: { scope } });
      const msg = user + ' is now a member of ' + role + (scope ? ' in scope ' + scope : ' globally') + '.';
      setUser('');
      p.reload();
      return msg;
    });
  };
  return html`
    ${canWrite() && html`<section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${add}>
        <${Field} id="m-user" label="User" value=${user} onInput=${setUser} required list=${USERS} />
        <${Field} id="m-role" label="Role" value=${role} onInput=${setRole} required list=${ROLES} note=${unseen('roles', role)} />
        <${Field} id="m-scope" label="Scope" value=${scope} onInput=${setScope} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${a.busy}>Add membership</button>
      </form>
      <${Status} owner="add-membership" />
    </section>`}
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${UserLookup} go=${go} />
      <p class="hint">Global members are listed on each role's page.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h">Memberships in one scope</h2>
      <${Status} owner="scoped" />
      <${List} p=${p} label="Scoped memberships" id="scoped-list" empty="No scoped memberships." render=${(m) => html`
        <li key=${m.scope + '/' + m.user + '/' + m.role} class="row">
          <span class="scope">${m.scope}</span>
          <span class="grow"><a href=${href('user', m.user)}>${m.user}</a> is a member of <a href=${href('role', m.role)}>${m.role}</a></span>
          ${canWrite() && html`<button type="button" class="danger" aria-label=${'Remove ' + m.user + ' from ' + m.role + ' in scope ' + m.scope}
            onClick=${() => rm.run(async () => {
              await call('DELETE', 'membership/' + seg(m.user) + '/' + seg(m.role), { query: { scope: m.scope } });
              p.reload();
              return m.user + ' is no longer a member of ' + m.role + ' in scope ' + m.scope + '.';
            })}>Remove</button>`}</li>`} />
    </section>`;
}
