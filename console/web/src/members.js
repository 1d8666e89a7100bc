// The Members page: scoped memberships of every scope, filtered by scope,
// role and user (GET /api/scoped_memberships, with its total); the
// filters are in the address (#/members/<scope>/<role>/<user>), so that a
// link (the delete dialog's) opens one role's.
import { call, getCounted, seg, canWrite, natural } from './api.js';
import { html, useState, usePaged, List, Field, Status, useAction, useField, useUnknownUser, focusSoon, fmt, href, unseen, PAGE, ROLES, USERS, Bounds } from './ui.js';
import { UserLookup } from './user.js';

export function MembersPage({ go, scope, role, user }) {
  const p = usePaged((after) => getCounted('scoped_memberships', { limit: PAGE, after, scope, role, user }),
    (m) => m.scope + '/' + m.user + '/' + m.role, [scope, role, user]);
  const [fScope, setFScope] = useField('f-scope', scope);
  const [fRole, setFRole] = useField('f-role', role);
  const [fUser, setFUser] = useField('f-user', user);
  const [mUser, setMUser] = useField('m-user');
  const [mRole, setMRole] = useField('m-role');
  const [mScope, setMScope] = useField('m-scope');
  const a = useAction('add-membership');
  const rm = useAction('scoped');
  const [added, setAdded] = useState(0);
  const newUser = useUnknownUser(mUser, added);
  const add = (e) => {
    e.preventDefault();
    const u = mUser.trim(), r = mRole.trim(), s = mScope.trim();
    a.run(async () => {
      await call('POST', 'membership/' + seg(u) + '/' + seg(r), { query: { scope: s } });
      setMUser('');
      setAdded((n) => n + 1);
      p.reload();
      focusSoon('#m-user');
      return u + ' is now a member of ' + r + (s ? ' in scope ' + s : ' globally') + '.';
    });
  };
  const filter = (e) => {
    e.preventDefault();
    const parts = [fScope.trim(), fRole.trim(), fUser.trim()];
    while (parts.length && !parts[parts.length - 1]) parts.pop();
    go(parts.length ? '#/members/' + parts.map(encodeURIComponent).join('/') : '#/members');
  };
  const what = [scope && 'scope ' + scope, role && 'role ' + role, user && 'user ' + user].filter(Boolean).join(', ');
  // Within a page, scopes in natural order (p2 before p10); pages follow
  // the server's order.
  const items = [...p.items].sort((x, y) => natural(x.scope, y.scope) || natural(x.user, y.user) || natural(x.role, y.role));
  return html`
    ${canWrite() && html`<section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${add}>
        <${Field} id="m-user" label="User" value=${mUser} onInput=${setMUser} required list=${USERS} note=${newUser} />
        <${Field} id="m-role" label="Role" value=${mRole} onInput=${setMRole} required list=${ROLES} note=${unseen('roles', mRole)} />
        <${Field} id="m-scope" label="Scope" value=${mScope} onInput=${setMScope} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${a.busy}>Add membership</button>
      </form>
      <${Status} owner="add-membership" />
    </section>`}
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${UserLookup} go=${go} />
      <p class="hint">Global members are listed on each role's page and each user's.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h" tabindex="-1">Memberships in one scope${what ? ': ' + what : ''}${p.total !== null ? ' (' + fmt(p.total) + ')' : ''}</h2>
      <form class="inline filters" onSubmit=${filter} aria-label="Filter memberships">
        <${Field} id="f-scope" label="Scope" value=${fScope} onInput=${setFScope} hint="Exactly this scope; empty: every scope." />
        <${Field} id="f-role" label="Role" value=${fRole} onInput=${setFRole} list=${ROLES} />
        <${Field} id="f-user" label="User" value=${fUser} onInput=${setFUser} list=${USERS} />
        <button type="submit">Filter</button>
      </form>
      <${Status} owner="scoped" />
      <${List} p=${{ ...p, items }} label="Scoped memberships" id="scoped-list" total=${p.total}
        empty=${what ? 'No scoped membership of ' + what + '.' : 'No scoped memberships.'} render=${(m) => html`
        <li key=${m.scope + '/' + m.user + '/' + m.role} class=${m.held === false ? 'row outside' : 'row'}>
          <span class="scope">${m.scope}</span>
          <span class="grow"><a href=${href('user', m.user)}>${m.user}</a> is a member of <a href=${href('role', m.role)}>${m.role}</a></span>
          <${Bounds} x=${m} />
          ${canWrite() && html`<button type="button" class="danger" aria-label=${'Remove ' + m.user + ' from ' + m.role + ' in scope ' + m.scope}
            onClick=${(e) => {
              const li = e.currentTarget.closest('li');
              const next = li && (li.nextElementSibling || li.previousElementSibling);
              rm.run(async () => {
                await call('DELETE', 'membership/' + seg(m.user) + '/' + seg(m.role), { query: { scope: m.scope } });
                p.reload();
                focusSoon((next && next.querySelector('button.danger')) || '#scoped-h');
                return m.user + ' is no longer a member of ' + m.role + ' in scope ' + m.scope + '.';
              });
            }}>Remove</button>`}</li>`} />
    </section>`;
}
