// "Who can" for a permission, and the audit log.
import { get, seg } from './api.js';
import { html, useState, usePaged, List, Field, ErrorText, href, PAGE, PERMS } from './ui.js';

// WhoCanPage answers for the permission and scope of the address
// (#/whocan/<permission>/<scope>), so that both survive the navigation.
export function WhoCanPage({ name, scope: shown, go }) {
  const [v, setV] = useState(name || '');
  const [scope, setScope] = useState(shown || '');
  const users = usePaged((after) => name ? get('which_users_can/' + seg(name), { limit: PAGE, after, scope: shown }) : Promise.resolve([]),
    (x) => x.user, [name, shown]);
  const roles = usePaged((after) => name ? get('which_roles_can/' + seg(name), { limit: PAGE, after }) : Promise.resolve([]),
    (x) => x.role, [name]);
  return html`
    <form class="inline" onSubmit=${(e) => { e.preventDefault(); if (v) go(scope.trim() ? href('whocan', v, scope.trim()) : href('whocan', v)); }}>
      <${Field} id="whocan-perm" label="Permission" value=${v} onInput=${setV} required list=${PERMS} />
      <${Field} id="whocan-scope" label="Scope" value=${scope} onInput=${setScope} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${name && html`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${name}${shown ? ' in scope ' + shown : ''}</h2>
        <${List} p=${users} label="Users" id="whocan-users" empty="Nobody." render=${(x) => html`
          <li key=${x.user} class="row"><a href=${href('user', x.user)}>${x.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${name}</h2>
        <${List} p=${roles} label="Roles" id="whocan-roles" empty="No role." render=${(x) => html`
          <li key=${x.role} class="row"><a href=${href('role', x.role)}>${x.role}</a></li>`} />
      </section>
    </div>`}`;
}

const ACTIONS = ['add_role', 'set_description', 'del_role', 'add_permission', 'del_permission', 'add_membership', 'del_membership',
  'add_inheritance', 'del_inheritance', 'batch'];

export function AuditPage() {
  const [action, setAction] = useState('');
  const [shown, setShown] = useState('');
  const p = usePaged((before) => get('audit', { limit: PAGE, before, action: shown }), (r) => r.id, [shown]);
  return html`
    <form class="inline" onSubmit=${(e) => { e.preventDefault(); setShown(action.trim()); }}>
      <${Field} id="audit-action" label="Action" value=${action} onInput=${setAction} list="audit-actions"
        hint="Empty: every action." />
      <datalist id="audit-actions">${ACTIONS.map((x) => html`<option value=${x} />`)}</datalist>
      <button type="submit">Filter</button>
    </form>
    <${ErrorText} text=${p.error} />
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${p.loading}>
        <caption>Audit records, newest first${shown ? ', action ' + shown : ''}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Who</th><th scope="col">Reason</th><th scope="col">Request</th></tr></thead>
        <tbody>${p.items.map((r) => html`<tr key=${r.id}>
          <td data-label="When"><time datetime=${r.at}>${r.at.replace('T', ' ').replace(/\.\d+Z$/, '')}</time></td>
          <td data-label="Action">${r.action}</td><td data-label="Resource">${r.resource}</td>
          <td data-label="Outcome">${r.outcome}</td><td data-label="Who" class="actor">${r.actor}</td>
          <td data-label="Reason">${r.reason}</td><td data-label="Request" class="mono">${r.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${!p.loading && !p.error && p.items.length === 0 && html`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${p.prev} disabled=${!p.hasPrev}>Newer</button>
      <span>Page ${p.page}</span>
      <button type="button" onClick=${p.next} disabled=${!p.hasNext}>Older</button>
    </nav>`;
}
