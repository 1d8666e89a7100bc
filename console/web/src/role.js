// One role: its grants, its inheritance, its effective permissions with
// where each comes from, and its members (global or in one scope).
import { call, get, seg } from './api.js';
import { html, useState, useEffect, usePaged, List, Field, ErrorText, useAction, href, PAGE } from './ui.js';

export function RolePage({ role, notify }) {
  const [tick, setTick] = useState(0);
  const changed = (msg) => { notify(msg); setTick((t) => t + 1); };
  const [about, setAbout] = useState({ text: '', error: '' });
  useEffect(() => {
    let live = true;
    get('role/' + seg(role)).then(
      (r) => live && setAbout({ text: r.description || 'No description.', error: '' }),
      (e) => live && setAbout({ text: '', error: e.message }),
    );
    return () => { live = false; };
  }, [role]);
  return html`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${about.text}</p>
    <${ErrorText} text=${about.error} id="role-error" />
    <div class="cols">
      <${Grants} role=${role} tick=${tick} changed=${changed} />
      <${Parents} role=${role} tick=${tick} changed=${changed} />
    </div>
    <${Children} role=${role} tick=${tick} />
    <${Effective} role=${role} tick=${tick} />
    <${Members} role=${role} tick=${tick} changed=${changed} />`;
}

// AddForm is a one-field form that runs add(value).
function AddForm({ id, label, button, add, extra }) {
  const [v, setV] = useState('');
  const a = useAction();
  const submit = (e) => {
    e.preventDefault();
    a.run(async () => { await add(v); setV(''); });
  };
  return html`<form class="inline" onSubmit=${submit}>
      <${Field} id=${id} label=${label} value=${v} onInput=${setV} required />
      ${extra}
      <button type="submit" disabled=${a.busy}>${button}</button>
    </form>
    <${ErrorText} text=${a.error} id=${id + '-error'} />`;
}

function RemoveButton({ label, remove }) {
  const a = useAction();
  return html`<button type="button" class="danger" aria-label=${label} disabled=${a.busy}
    onClick=${() => a.run(remove)}>Remove</button>${a.error && html`<span class="error" role="alert">${a.error}</span>`}`;
}

function Grants({ role, tick, changed }) {
  const p = usePaged((after) => get('role_permissions/' + seg(role), { limit: PAGE, after }), (x) => x.name, [role, tick]);
  const path = (name) => 'permission/' + seg(role) + '/' + seg(name);
  return html`<section aria-labelledby="grants-h">
    <h2 id="grants-h">Permissions granted to ${role}</h2>
    <${AddForm} id="grant-name" label="Permission" button="Grant" add=${async (name) => {
      await call('POST', path(name));
      changed('Granted ' + name + ' to ' + role + '.');
    }} />
    <${List} p=${p} label="Granted permissions" id="grants-list" empty="No permissions granted directly." render=${(x) => html`
      <li key=${x.name} class="row"><a href=${href('whocan', x.name)}>${x.name}</a>
        <${RemoveButton} label=${'Remove permission ' + x.name} remove=${async () => {
          await call('DELETE', path(x.name));
          changed('Removed ' + x.name + ' from ' + role + '.');
        }} /></li>`} />
  </section>`;
}

function Parents({ role, tick, changed }) {
  const p = usePaged((after) => get('role/' + seg(role) + '/inherits', { limit: PAGE, after }), (x) => x.role, [role, tick]);
  const path = (parent) => 'role/' + seg(role) + '/inherits/' + seg(parent);
  return html`<section aria-labelledby="parents-h">
    <h2 id="parents-h">${role} inherits from</h2>
    <${AddForm} id="parent-name" label="Parent role" button="Inherit" add=${async (parent) => {
      await call('POST', path(parent));
      changed(role + ' now inherits from ' + parent + '.');
    }} />
    <${List} p=${p} label="Parent roles" id="parents-list" empty="Inherits from no role." render=${(x) => html`
      <li key=${x.role} class="row"><a href=${href('role', x.role)}>${x.role}</a>
        <${RemoveButton} label=${'Stop inheriting from ' + x.role} remove=${async () => {
          await call('DELETE', path(x.role));
          changed(role + ' no longer inherits from ' + x.role + '.');
        }} /></li>`} />
  </section>`;
}

// Children lists the roles that inherit from this one.
function Children({ role, tick }) {
  const p = usePaged((after) => get('role/' + seg(role) + '/inherited_by', { limit: PAGE, after }), (x) => x.role, [role, tick]);
  return html`<section aria-labelledby="children-h">
    <h2 id="children-h">Roles inheriting from ${role}</h2>
    <${List} p=${p} label="Roles inheriting from it" id="children-list" empty="None." render=${(x) => html`
      <li key=${x.role} class="row"><a href=${href('role', x.role)}>${x.role}</a></li>`} />
  </section>`;
}

// Effective lists a page of the role's effective permissions, and for each
// where it comes from: GET /api/permission/{role}/{name}?explain=true
// answers with the chain of roles to the one granted it (one request a
// permission, however deep the inheritance).
function Effective({ role, tick }) {
  const p = usePaged(async (after) => {
    const names = await get('role_permissions/' + seg(role), { limit: PAGE, after, effective: 'true' });
    return Promise.all(names.map(async ({ name }) => {
      const r = await get('permission/' + seg(role) + '/' + seg(name), { explain: 'true' });
      return { name, chain: r.chain || [] };
    }));
  }, (x) => x.name, [role, tick]);
  return html`<section aria-labelledby="eff-h">
    <h2 id="eff-h">Effective permissions of ${role}</h2>
    <${List} p=${p} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${(x) => html`
      <li key=${x.name} class="row"><span class="name">${x.name}</span>
        <span class="src">${x.chain.length <= 1 ? 'granted directly' : 'inherited from ' + x.chain[x.chain.length - 1] + ' (' + x.chain.join(' → ') + ')'}</span></li>`} />
  </section>`;
}

function Members({ role, tick, changed }) {
  const [scope, setScope] = useState('');
  const [shown, setShown] = useState('');
  const p = usePaged((after) => get('members/' + seg(role), { limit: PAGE, after, scope: shown }), (x) => x.user, [role, tick, shown]);
  const path = (user) => 'membership/' + seg(user) + '/' + seg(role);
  return html`<section aria-labelledby="members-h">
    <h2 id="members-h">Members of ${role}</h2>
    <${AddForm} id="member-user" label="User" button="Add member" add=${async (user) => {
      await call('POST', path(user), { query: { scope } });
      changed(user + ' is now a member of ' + role + (scope ? ' in scope ' + scope : '') + '.');
    }} extra=${html`<${Field} id="member-scope" label="Scope" value=${scope} onInput=${setScope}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <form class="inline" onSubmit=${(e) => { e.preventDefault(); setShown(scope); }}>
      <p class="hint">Showing ${shown ? 'members in scope “' + shown + '” (global ones included)' : 'global members'}.</p>
      <button type="submit">Show members in this scope</button>
    </form>
    <${List} p=${p} label="Members" id="members-list" empty="No members." render=${(x) => html`
      <li key=${x.user} class="row"><a href=${href('user', x.user)}>${x.user}</a>
        <${RemoveButton} label=${'Remove member ' + x.user} remove=${async () => {
          await call('DELETE', path(x.user), { query: { scope: shown } });
          changed(x.user + ' is no longer a member of ' + role + (shown ? ' in scope ' + shown : '') + '.');
        }} /></li>`} />
  </section>`;
}
