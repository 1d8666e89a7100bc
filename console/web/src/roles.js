// The roles page: list, create, delete with the cascade named.
import { call, get, getPage, seg, canWrite } from './api.js';
import { html, useState, useEffect, useRef, usePaged, List, Field, ErrorText, Status, Search, say, useAction, useDebounced, useField, focusSoon, fmt, href, PAGE, ROLES } from './ui.js';
import { forget } from './names.js';

export function RolesPage() {
  const [find, setFind] = useState('');
  const prefix = useDebounced(find);
  const p = usePaged((after) => getPage('roles', { limit: PAGE, after, prefix }), (r) => r.role, [prefix]);
  const [name, setName] = useField('new-role');
  const [desc, setDesc] = useField('new-role-desc');
  const [doomed, setDoomed] = useState('');
  const opener = useRef(null);
  // A cancelled dialog gives the focus back to the button that opened it,
  // once the dialog is gone (while it is open the rest of the page is inert).
  useEffect(() => {
    if (!doomed && opener.current && opener.current.isConnected) opener.current.focus();
  }, [doomed]);
  const a = useAction('new-role');
  const create = (e) => {
    e.preventDefault();
    a.run(async () => {
      const r = await call('POST', 'role/' + seg(name), { body: desc ? { description: desc } : undefined });
      const msg = 'Role ' + r.role + ' created.';
      setName('');
      setDesc('');
      p.reload();
      focusSoon('#new-role');
      return msg;
    });
  };
  return html`
    ${canWrite() && html`<section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${create}>
        <${Field} id="new-role" label="Role name" value=${name} onInput=${setName} required />
        <${Field} id="new-role-desc" label="Description" value=${desc} onInput=${setDesc} />
        <button type="submit" disabled=${a.busy}>Create role</button>
      </form>
      <${Status} owner="new-role" />
    </section>`}
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${Search} id="find-role" label="Find roles" value=${find} onInput=${setFind} list=${ROLES} />
      <${Status} owner="roles" />
      <${List} p=${p} label="Roles" id="roles-list" counted=${['role', 'roles']} prefix=${prefix} empty=${prefix ? 'No role starts with “' + prefix + '”.' : 'No roles yet.'} render=${(r) => html`
        <li key=${r.role} class="row">
          <a href=${href('role', r.role)}>${r.role}</a>
          <span class="desc">${r.description}</span>
          ${canWrite() && html`<button type="button" class="danger" onClick=${(e) => { opener.current = e.currentTarget; setDoomed(r.role); }}
            aria-label=${'Delete role ' + r.role}>Delete</button>`}
        </li>`} />
    </section>
    ${doomed && html`<${DeleteRole} role=${doomed} onClose=${(done) => {
      setDoomed('');
      if (done) { forget('roles', doomed); say('roles', done); p.reload(); opener.current = null; focusSoon('#find-role'); }
    }} />`}`;
}

const SHOW = 100;

// DeleteRole asks before deleting, naming what goes with the role: its
// grants, its memberships (global and scoped) and its inheritance links,
// counted by GET /api/role/{role} and named (the first SHOW of each) by the
// lists, read one after the other (open mode lets a client few reads at
// once). A role with members needs its name typed to confirm, and offers
// its grants and members as a CSV file first: a deletion cannot be undone.
export function DeleteRole({ role, onClose }) {
  const ref = useRef();
  const [cascade, setCascade] = useState(null);
  const [typed, setTyped] = useState('');
  const a = useAction();
  const exp = useAction();
  useEffect(() => {
    const d = ref.current;
    d.showModal();
    focusSoon('#cancel-delete');
    const cancel = () => onClose('');
    d.addEventListener('cancel', cancel);
    a.run(async () => {
      const r = 'role/' + seg(role);
      const detail = await get(r);
      const members = await get('members/' + seg(role), { limit: SHOW });
      const perms = await get('role_permissions/' + seg(role), { limit: SHOW });
      const parents = await get(r + '/inherits', { limit: SHOW });
      const children = await get(r + '/inherited_by', { limit: SHOW });
      setCascade({
        counts: detail.counts,
        members: members.map((m) => m.user), perms: perms.map((x) => x.name),
        parents: parents.map((x) => x.role), children: children.map((x) => x.role),
      });
      if (detail.counts.members + detail.counts.scoped_members > 0) focusSoon('#confirm-name');
    });
    return () => d.removeEventListener('cancel', cancel);
  }, [role]);
  const c = cascade && cascade.counts;
  const guarded = c && c.members + c.scoped_members > 0;
  const del = () => a.run(async () => {
    const r = await call('DELETE', 'role/' + seg(role));
    onClose(r.deleted
      ? 'Role ' + role + ' deleted, with ' + count(c.members + c.scoped_members, 'membership') + ' and ' + count(c.permissions, 'permission') + '.'
      : 'Role ' + role + ' was already gone.');
  });
  const names = (list, total) => total === 0 ? 'none'
    : list.join(', ') + (total > list.length ? ' and ' + (total - list.length) + ' more' : '');
  return html`<dialog ref=${ref} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${role}”?</h2>
    <${ErrorText} text=${a.error} />
    ${cascade ? html`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${count(c.members, 'global membership')}</strong>: ${names(cascade.members, c.members)}</li>
        <li><strong>${count(c.scoped_members, 'membership')} in a scope</strong>${c.scoped_members ? html` (<a href=${'#/members//' + encodeURIComponent(role)} onClick=${() => onClose('')}>list them</a>)` : ''}</li>
        <li><strong>${count(c.permissions, 'permission')}</strong>: ${names(cascade.perms, c.permissions)}</li>
        <li><strong>${count(c.parents, 'parent link')}</strong> (it inherits from): ${names(cascade.parents, c.parents)}</li>
        <li><strong>${count(c.children, 'child link')}</strong> (roles inheriting from it lose what it grants): ${names(cascade.children, c.children)}</li>
      </ul>
      <p>Re-creating the role brings none of this back. The audit log records these counts; the change feed names each membership.</p>
      <p><button type="button" id="export-role" disabled=${exp.busy} onClick=${() => exp.run(() => exportRole(role))}>Export its grants and members (CSV)</button>
        ${exp.busy ? ' Exporting…' : ''}</p>
      <${ErrorText} text=${exp.error} />
      ${guarded && html`<${Field} id="confirm-name" label=${'Type ' + role + ' to confirm'} value=${typed} onInput=${setTyped} required />`}
    </div>`
      : html`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${del}
        disabled=${!cascade || a.busy || (guarded && typed !== role)}>Delete ${role}</button>
      <button type="button" id="cancel-delete" onClick=${() => onClose('')}>Cancel</button>
    </div>
  </dialog>`;
}

// exportRole saves the role's grants and memberships (global and in every
// scope) as a CSV file, read a page at a time: kind,name,scope.
async function exportRole(role) {
  const rows = [['kind', 'name', 'scope']];
  const all = async (path, query, row, cursor) => {
    let after;
    for (;;) {
      const page = await get(path, { ...query, limit: 1000, after });
      page.forEach((x) => rows.push(row(x)));
      if (page.length < 1000) return;
      after = cursor(page[page.length - 1]);
    }
  };
  await all('role_permissions/' + seg(role), {}, (x) => ['grant', x.name, ''], (x) => x.name);
  await all('members/' + seg(role), {}, (x) => ['member', x.user, ''], (x) => x.user);
  await all('scoped_memberships', { role }, (x) => ['member', x.user, x.scope], (x) => x.scope + '/' + x.user + '/' + x.role);
  const csv = rows.map((r) => r.map((v) => (/[",\n\r]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v)).join(',')).join('\r\n') + '\r\n';
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'role-' + role.replace(/[^A-Za-z0-9._-]/g, '_') + '.csv';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function count(n, what) {
  return fmt(n) + ' ' + what + (n === 1 ? '' : 's');
}
