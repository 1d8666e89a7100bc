// One role: its grants, its inheritance, its effective permissions with
// where each comes from, and its members (global or in one scope).
//
// What it costs: GET /api/role/{role} first (a missing role stops there,
// said once), then one request for each open section: grants, parents and
// members (whose counts come with the role, for "Page N of M"). The roles
// inheriting from it and its effective permissions are
// folded, and read when unfolded; where an inherited permission comes from
// is asked when "Where from?" is pressed. At most 4 requests answer the
// page, however many permissions the role has.
import { call, get, seg, canWrite } from './api.js';
import {
  html, useState, useEffect, usePaged, List, Field, ErrorText, Status, Search, useAction, useDebounced, href, unseen, PAGE,
  ROLES, PERMS, USERS,
} from './ui.js';

export function RolePage({ role }) {
  const [tick, setTick] = useState(0);
  const [about, setAbout] = useState({ detail: null, error: '' });
  useEffect(() => {
    let live = true;
    get('role/' + seg(role)).then(
      (r) => live && setAbout({ detail: r, error: '' }),
      (e) => live && setAbout({
        detail: null,
        error: e.status === 404 ? 'Role “' + role + '” not found: there is no role of that name (create it on the Roles page).' : e.message,
      }),
    );
    return () => { live = false; };
  }, [role, tick]);
  // A change reloads the lists and the counts; what it said stays.
  const changed = () => setTick((t) => t + 1);
  // Until the role is known to exist nothing else is asked, and its forms
  // stay disabled: a missing role is said once.
  const ok = about.detail !== null;
  const counts = about.detail ? about.detail.counts : null;
  const s = { role, tick, changed, ok };
  return html`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${about.detail ? (about.detail.description || 'No description.') : ''}</p>
    <${ErrorText} text=${about.error} id="role-error" />
    <fieldset class="plain" disabled=${!ok}>
      <legend class="visually-hidden">Role ${role}</legend>
      ${ok && html`<${Describe} role=${role} current=${about.detail.description || ''}
        done=${(d) => setAbout({ detail: { ...about.detail, description: d }, error: '' })} />`}
      <div class="cols">
        <${Grants} ...${s} total=${counts ? counts.permissions : 0} />
        <${Parents} ...${s} total=${counts ? counts.parents : 0} />
      </div>
      ${ok && html`<${Children} ...${s} count=${counts.children} />
        <${Effective} ...${s} inherits=${counts.parents > 0} />`}
      <${Members} ...${s} total=${counts ? counts.members : 0} />
    </fieldset>`;
}

// Describe changes the role's description: PUT /api/role/{role}.
function Describe({ role, current, done }) {
  // Hidden from who only reads (rolegate.read); constant for the session,
  // so the hooks below run the same way on every render.
  if (!canWrite()) return null;
  const [open, setOpen] = useState(false);
  const [v, setV] = useState(current);
  const a = useAction('describe');
  const submit = (e) => {
    e.preventDefault();
    a.run(async () => {
      const r = await call('PUT', 'role/' + seg(role), { body: { description: v } });
      done(r.description);
      setOpen(false);
      return r.description ? 'Description of ' + role + ' saved.' : 'Description of ' + role + ' cleared.';
    });
  };
  return html`<div class="describe">
    ${open ? html`<form class="inline" onSubmit=${submit}>
        <${Field} id="role-desc-edit" label="Description" value=${v} onInput=${setV} hint="Empty: no description." />
        <button type="submit" disabled=${a.busy}>Save description</button>
        <button type="button" onClick=${() => { setOpen(false); setV(current); }}>Cancel</button>
      </form>`
      : html`<button type="button" id="edit-desc" onClick=${() => { setV(current); setOpen(true); }}>Edit description</button>`}
    <${Status} owner="describe" />
  </div>`;
}

// AddForm is a one-field form that runs add(value), whose message is
// shown beside it (owner). suggest names the kind of names offered, and
// pointed out when not seen (perms, roles, users).
function AddForm({ id, label, button, add, extra, owner, list, kind }) {
  if (!canWrite()) return null;
  const [v, setV] = useState('');
  const a = useAction(owner);
  const submit = (e) => {
    e.preventDefault();
    a.run(async () => { const msg = await add(v); setV(''); return msg; });
  };
  return html`<form class="inline" onSubmit=${submit}>
      <${Field} id=${id} label=${label} value=${v} onInput=${setV} required list=${list}
        note=${kind ? unseen(kind, v) : ''} />
      ${extra}
      <button type="submit" disabled=${a.busy}>${button}</button>
    </form>`;
}

function RemoveButton({ label, remove, owner }) {
  if (!canWrite()) return null;
  const a = useAction(owner);
  return html`<button type="button" class="danger" aria-label=${label} disabled=${a.busy}
    onClick=${() => a.run(remove)}>Remove</button>`;
}

function Grants({ role, tick, changed, ok, total }) {
  const p = usePaged((after) => get('role_permissions/' + seg(role), { limit: PAGE, after }), (x) => x.name, [role, tick], ok);
  const path = (name) => 'permission/' + seg(role) + '/' + seg(name);
  return html`<section aria-labelledby="grants-h">
    <h2 id="grants-h">Permissions granted to ${role}</h2>
    <${AddForm} id="grant-name" label="Permission" button="Grant" owner="grants" list=${PERMS} kind="perms" add=${async (name) => {
      await call('POST', path(name));
      changed();
      return 'Granted ' + name + ' to ' + role + '.';
    }} />
    <${Status} owner="grants" />
    ${ok && html`<${List} p=${p} total=${total} label="Granted permissions" id="grants-list" empty="No permissions granted directly." render=${(x) => html`
      <li key=${x.name} class="row"><a href=${href('whocan', x.name)}>${x.name}</a>
        <${RemoveButton} owner="grants" label=${'Remove permission ' + x.name} remove=${async () => {
          await call('DELETE', path(x.name));
          changed();
          return 'Removed ' + x.name + ' from ' + role + '.';
        }} /></li>`} />`}
  </section>`;
}

function Parents({ role, tick, changed, ok, total }) {
  const p = usePaged((after) => get('role/' + seg(role) + '/inherits', { limit: PAGE, after }), (x) => x.role, [role, tick], ok);
  const path = (parent) => 'role/' + seg(role) + '/inherits/' + seg(parent);
  return html`<section aria-labelledby="parents-h">
    <h2 id="parents-h">${role} inherits from</h2>
    <${AddForm} id="parent-name" label="Parent role" button="Inherit" owner="parents" list=${ROLES} kind="roles" add=${async (parent) => {
      await call('POST', path(parent));
      changed();
      return role + ' now inherits from ' + parent + '.';
    }} />
    <${Status} owner="parents" />
    ${ok && html`<${List} p=${p} total=${total} label="Parent roles" id="parents-list" empty="Inherits from no role." render=${(x) => html`
      <li key=${x.role} class="row"><a href=${href('role', x.role)}>${x.role}</a>
        <${RemoveButton} owner="parents" label=${'Stop inheriting from ' + x.role} remove=${async () => {
          await call('DELETE', path(x.role));
          changed();
          return role + ' no longer inherits from ' + x.role + '.';
        }} /></li>`} />`}
  </section>`;
}

// Fold is a section folded under its heading, whose content is read when
// unfolded (open).
function Fold({ id, title, children, onToggle }) {
  return html`<section aria-labelledby=${id + '-h'}>
    <details id=${id} onToggle=${(e) => onToggle(e.currentTarget.open)}>
      <summary><h2 id=${id + '-h'}>${title}</h2></summary>
      ${children}
    </details>
  </section>`;
}

// Children lists the roles that inherit from this one, once unfolded.
function Children({ role, tick, ok, count }) {
  const [open, setOpen] = useState(false);
  const p = usePaged((after) => get('role/' + seg(role) + '/inherited_by', { limit: PAGE, after }), (x) => x.role,
    [role, tick], ok && open && count > 0);
  return html`<${Fold} id="children" title=${'Roles inheriting from ' + role + ' (' + count + ')'} onToggle=${setOpen}>
    ${count === 0 ? html`<p class="empty" id="children-list">None.</p>`
      : html`<${List} p=${p} label="Roles inheriting from it" id="children-list" empty="None." render=${(x) => html`
      <li key=${x.role} class="row"><a href=${href('role', x.role)}>${x.role}</a></li>`} />`}
  <//>`;
}

// Effective lists a page of the role's effective permissions once
// unfolded (one request: GET /api/role_permissions/{role}?effective=true).
// A role that inherits nothing holds only its own grants; otherwise
// "Where from?" asks GET /api/permission/{role}/{name}?explain=true for
// the chain of roles to the one granted it.
function Effective({ role, tick, ok, inherits }) {
  const [open, setOpen] = useState(false);
  const p = usePaged((after) => get('role_permissions/' + seg(role), { limit: PAGE, after, effective: 'true' }),
    (x) => x.name, [role, tick], ok && open);
  return html`<${Fold} id="effective" title=${'Effective permissions of ' + role} onToggle=${setOpen}>
    <${List} p=${p} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${(x) => html`
      <li key=${x.name} class="row wrap"><span class="name">${x.name}</span>
        ${inherits ? html`<${WhereFrom} role=${role} name=${x.name} />` : html`<span class="src">granted directly</span>`}</li>`} />
  <//>`;
}

function WhereFrom({ role, name }) {
  const [text, setText] = useState('');
  const ask = async () => {
    try {
      const r = await get('permission/' + seg(role) + '/' + seg(name), { explain: 'true' });
      const chain = r.chain || [];
      setText(!r.result ? 'no longer held' : chain.length <= 1 ? 'granted directly'
        : 'inherited from ' + chain[chain.length - 1] + ' (' + chain.join(' → ') + ')');
    } catch (e) {
      setText(e.message);
    }
  };
  return text ? html`<span class="src" role="status">${text}</span>`
    : html`<button type="button" aria-label=${'Where does ' + name + ' come from?'} onClick=${ask}>Where from?</button>`;
}

// Members lists the global members, or with a scope shown the members in
// that scope, global ones included: each row says which it is, and its
// Remove removes that very membership.
function Members({ role, tick, changed, ok, total }) {
  const [scope, setScope] = useState('');
  const [shown, setShown] = useState('');
  const [find, setFind] = useState('');
  const prefix = useDebounced(find);
  const p = usePaged((after) => get('members/' + seg(role), { limit: PAGE, after, scope: shown, prefix }),
    (x) => x.user, [role, tick, shown, prefix], ok);
  const path = (user) => 'membership/' + seg(user) + '/' + seg(role);
  const where = (s) => s ? ' of ' + role + ' in scope ' + s : ' global member of ' + role;
  return html`<section aria-labelledby="members-h">
    <h2 id="members-h">Members of ${role}</h2>
    <${AddForm} id="member-user" label="User" button="Add member" owner="members" list=${USERS} add=${async (user) => {
      await call('POST', path(user), { query: { scope } });
      changed();
      return user + ' is now a' + (scope ? ' member' : '') + where(scope) + '.';
    }} extra=${html`<${Field} id="member-scope" label="Scope" value=${scope} onInput=${setScope}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <${Status} owner="members" />
    <div class="inline">
      <p class="hint" id="members-shown">Showing ${shown ? 'members in scope “' + shown + '” (global ones included)' : 'global members'}.</p>
      <button type="button" id="show-scope" onClick=${() => setShown(scope.trim())}>${scope.trim() ? 'Show members in scope “' + scope.trim() + '”' : 'Show global members'}</button>
    </div>
    <${Search} id="find-member" label="Find members" value=${find} onInput=${setFind} list=${USERS} />
    ${ok && html`<${List} p=${p} label="Members" id="members-list" total=${shown || prefix ? 0 : total}
      empty=${prefix ? 'No member starts with “' + prefix + '”.' : 'No members.'} render=${(x) => html`
      <li key=${x.user + '/' + (x.scope || '')} class="row"><a href=${href('user', x.user)}>${x.user}</a>
        <span class=${x.scope ? 'scope' : 'scope global'}>${x.scope ? 'in scope ' + x.scope : 'global'}</span>
        <${RemoveButton} owner="members" label=${'Remove ' + x.user + (x.scope ? ' from scope ' + x.scope : ' (global member)')}
          remove=${async () => {
            const r = await call('DELETE', path(x.user), { query: { scope: x.scope || undefined } });
            changed();
            return r.deleted ? x.user + ' is no longer a' + (x.scope ? ' member' : '') + where(x.scope) + '.'
              : x.user + ' was already not a' + (x.scope ? ' member' : '') + where(x.scope) + '.';
          }} /></li>`} />`}
  </section>`;
}
