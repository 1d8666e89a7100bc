// "Who can" for a permission, with totals (each user until when she holds
// it: "until Fri 18:00", nothing when with no end), and the audit log,
// filtered.
import { get, getCounted, seg } from './api.js';
import { html, useState, usePaged, List, Field, ErrorText, useField, fmt, href, PAGE, PERMS, USERS, Bounds } from './ui.js';

// WhoCanPage answers for the permission and scope of the address
// (#/whocan/<permission>/<scope>), so that both survive the navigation.
export function WhoCanPage({ name, scope: shown, go }) {
  const [v, setV] = useState(name || '');
  const [scope, setScope] = useState(shown || '');
  const users = usePaged((after) => name ? getCounted('which_users_can/' + seg(name), { limit: PAGE, after, scope: shown }) : Promise.resolve([]),
    (x) => x.user, [name, shown]);
  const roles = usePaged((after) => name ? getCounted('which_roles_can/' + seg(name), { limit: PAGE, after }) : Promise.resolve([]),
    (x) => x.role, [name]);
  const n = (p) => (p.total !== null ? ' (' + fmt(p.total) + ')' : '');
  return html`
    <form class="inline" onSubmit=${(e) => { e.preventDefault(); if (v.trim()) go(scope.trim() ? href('whocan', v.trim(), scope.trim()) : href('whocan', v.trim())); }}>
      <${Field} id="whocan-perm" label="Permission" value=${v} onInput=${setV} required list=${PERMS} />
      <${Field} id="whocan-scope" label="Scope" value=${scope} onInput=${setScope} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${name && html`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${name}${shown ? ' in scope ' + shown : ''}${n(users)}</h2>
        <${List} p=${users} label="Users" id="whocan-users" counted=${['user', 'users']} empty="Nobody." render=${(x) => html`
          <li key=${x.user} class="row"><a href=${href('user', x.user)}>${x.user}</a>
            <${Bounds} x=${{ expires_at: x.until }} /></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${name}${n(roles)}</h2>
        <${List} p=${roles} label="Roles" id="whocan-roles" counted=${['role', 'roles']} empty="No role." render=${(x) => html`
          <li key=${x.role} class="row"><a href=${href('role', x.role)}>${x.role}</a></li>`} />
      </section>
    </div>`}`;
}

const ACTIONS = ['add_role', 'set_description', 'del_role', 'add_permission', 'del_permission', 'add_membership', 'del_membership',
  'add_inheritance', 'del_inheritance', 'rename_user', 'batch'];

// removed says what a del_role record's detail counts.
const removed = (d) => d ? 'removed ' + [[d.grants, 'grant'], [d.memberships, 'global membership'], [d.scoped_memberships, 'scoped membership'],
  [d.parents, 'parent link'], [d.children, 'child link']].map(([n, w]) => fmt(n) + ' ' + w + (n === 1 ? '' : 's')).join(', ') : '';

// The day a date field names, as the audit's since and until (UTC).
const day = (d, next) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) return undefined;
  const t = new Date(d + 'T00:00:00Z');
  if (next) t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString();
};

export function AuditPage() {
  const [action, setAction] = useField('audit-action');
  const [actor, setActor] = useField('audit-actor');
  const [resource, setResource] = useField('audit-resource');
  const [from, setFrom] = useField('audit-from');
  const [to, setTo] = useField('audit-to');
  const [q, setQ] = useState({});
  const p = usePaged((before) => get('audit', { limit: PAGE, before, ...q }), (r) => r.id, [q]);
  const submit = (e) => {
    e.preventDefault();
    const who = actor.trim();
    setQ({
      action: action.trim() || undefined,
      actor: who && !/^(user|key):|^(library|anonymous)$/.test(who) ? 'user:' + who : who || undefined,
      resource: resource.trim() || undefined, since: day(from), until: day(to, true),
    });
  };
  const what = Object.entries(q).filter(([, v]) => v).map(([k, v]) => k + ' ' + v).join(', ');
  return html`
    <form class="inline filters" onSubmit=${submit} aria-label="Filter the audit log">
      <${Field} id="audit-action" label="Action" value=${action} onInput=${setAction} list="audit-actions" hint="Empty: every action." />
      <datalist id="audit-actions">${ACTIONS.map((x) => html`<option value=${x} />`)}</datalist>
      <${Field} id="audit-actor" label="Who" value=${actor} onInput=${setActor} list=${USERS} hint="A user's name, user:NAME, key:XXXXXXXX or library." />
      <${Field} id="audit-resource" label="Resource" value=${resource} onInput=${setResource} hint="role:NAME, membership:USER, permission:ROLE…" />
      <${Field} id="audit-from" type="date" label="From (UTC)" value=${from} onInput=${setFrom} />
      <${Field} id="audit-to" type="date" label="To (UTC)" value=${to} onInput=${setTo} />
      <button type="submit">Filter</button>
    </form>
    ${p.error && html`<div class="failed"><${ErrorText} text=${p.error} /><button type="button" class="retry" onClick=${p.reload}>Retry</button></div>`}
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${p.loading ? 'true' : 'false'}>
        <caption>Audit records, newest first${what ? ', ' + what : ''}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Who</th><th scope="col">Reason</th><th scope="col">Request</th></tr></thead>
        <tbody>${p.items.map((r) => html`<tr key=${r.id}>
          <td data-label="When"><time datetime=${r.at}>${r.at.replace('T', ' ').replace(/\.\d+Z$/, '')}</time></td>
          <td data-label="Action">${r.action}</td><td data-label="Resource">${r.resource}${r.detail ? html`<br /><small class="detail">${removed(r.detail)}</small>` : ''}</td>
          <td data-label="Outcome">${r.outcome}</td><td data-label="Who" class="actor">${r.actor}</td>
          <td data-label="Reason">${r.reason}</td><td data-label="Request" class="mono">${r.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${p.loading && p.items.length === 0 && html`<p class="loading">Loading…</p>`}
    ${!p.loading && !p.error && p.items.length === 0 && html`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${p.prev} disabled=${!p.hasPrev}>Newer</button>
      <span>Page ${p.page}</span>
      <button type="button" onClick=${p.next} disabled=${!p.hasNext}>Older</button>
    </nav>`;
}
