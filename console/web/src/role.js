// One role: its grants, its inheritance, its effective permissions with
// where each comes from, and its members (global or in one scope); each
// list with a filter and its total.
//
// What it costs: GET /api/role/{role} first (a missing role stops there,
// said once), then one request for each open section: grants, parents and
// members (whose totals come with the role's counts while unfiltered). The
// roles inheriting from it and its effective permissions are folded, and
// read when unfolded; where an inherited permission comes from is asked
// when "Where from?" is pressed. At most 4 requests answer the page,
// however many permissions the role has.
import { call, get, getCounted, seg, canWrite } from './api.js';
import {
  html, useState, useEffect, usePaged, List, Field, ErrorText, Status, Search, useAction, useDebounced, useField, useUnknownUser,
  focusSoon, fmt, href, unseen, PAGE, ROLES, PERMS, USERS, Bounds,
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
  const n = (k) => (counts ? ' (' + fmt(k === 'members' ? counts.members + counts.scoped_members : counts[k]) + ')' : '');
  return html`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${about.detail ? (about.detail.description || 'No description.') : ''}</p>
    <${ErrorText} text=${about.error} id="role-error" />
    ${ok && html`<nav class="toc" aria-label="On this page"><ul>
      <li><a href="#grants-h" onClick=${jump('grants-h')}>Grants${n('permissions')}</a></li>
      <li><a href="#parents-h" onClick=${jump('parents-h')}>Inherits${n('parents')}</a></li>
      <li><a href="#members-h" onClick=${jump('members-h')}>Members${n('members')}</a></li>
    </ul></nav>`}
    <fieldset class="plain" disabled=${!ok}>
      <legend class="visually-hidden">Role ${role}</legend>
      ${ok && html`<${Describe} role=${role} current=${about.detail.description || ''}
        done=${(d) => setAbout({ detail: { ...about.detail, description: d }, error: '' })} />`}
      <div class="cols">
        <${Grants} ...${s} total=${counts ? counts.permissions : null} />
        <${Parents} ...${s} total=${counts ? counts.parents : null} />
      </div>
      ${ok && html`<${Children} ...${s} count=${counts.children} />
        <${Effective} ...${s} inherits=${counts.parents > 0} />`}
      <${Members} ...${s} total=${counts ? counts.members : null} />
    </fieldset>`;
}

// jump moves to a section's heading and gives it the focus (the address
// keeps the page's route).
const jump = (id) => (e) => {
  e.preventDefault();
  const h = document.getElementById(id);
  if (h) { h.scrollIntoView(); focusSoon(h); }
};

// Describe changes the role's description: PUT /api/role/{role}. Edit
// puts the focus in the field; Save and Cancel give it back to Edit.
function Describe({ role, current, done }) {
  // Hidden from who only reads (rolegate.read); constant for the session,
  // so the hooks below run the same way on every render.
  if (!canWrite()) return null;
  const [open, setOpen] = useState(false);
  const [v, setV] = useState(current);
  const a = useAction('describe');
  const close = () => { setOpen(false); focusSoon('#edit-desc'); };
  const submit = (e) => {
    e.preventDefault();
    a.run(async () => {
      const r = await call('PUT', 'role/' + seg(role), { body: { description: v } });
      done(r.description);
      close();
      return r.description ? 'Description of ' + role + ' saved.' : 'Description of ' + role + ' cleared.';
    });
  };
  return html`<div class="describe">
    ${open ? html`<form class="inline" onSubmit=${submit}>
        <${Field} id="role-desc-edit" label="Description" value=${v} onInput=${setV} hint="Empty: no description." />
        <button type="submit" disabled=${a.busy}>Save description</button>
        <button type="button" onClick=${() => { setV(current); close(); }}>Cancel</button>
      </form>`
      : html`<button type="button" id="edit-desc" onClick=${() => { setV(current); setOpen(true); focusSoon('#role-desc-edit'); }}>Edit description</button>`}
    <${Status} owner="describe" />
  </div>`;
}

// AddForm is a one-field form that runs add(value), whose message is
// shown beside it (owner); the focus stays in the field for the next.
function AddForm({ id, label, button, add, extra, owner, list, note }) {
  if (!canWrite()) return null;
  const [v, setV] = useField(id);
  const a = useAction(owner);
  const submit = (e) => {
    e.preventDefault();
    a.run(async () => { const msg = await add(v); setV(''); focusSoon('#' + id); return msg; });
  };
  return html`<form class="inline" onSubmit=${submit}>
      <${Field} id=${id} label=${label} value=${v} onInput=${setV} required list=${list} note=${note ? note(v) : ''} />
      ${extra}
      <button type="submit" disabled=${a.busy}>${button}</button>
    </form>`;
}

// RemoveButton's accessible name starts with its visible label; after
// the removal the focus goes to the next row's Remove, else the list's
// heading.
function RemoveButton({ label, remove, owner, heading }) {
  if (!canWrite()) return null;
  const a = useAction(owner);
  return html`<button type="button" class="danger" aria-label=${label} disabled=${a.busy}
    onClick=${(e) => {
      const li = e.currentTarget.closest('li');
      const next = li && (li.nextElementSibling || li.previousElementSibling);
      a.run(async () => {
        const msg = await remove();
        focusSoon((next && next.querySelector('button.danger')) || '#' + heading);
        return msg;
      });
    }}>Remove</button>`;
}

// useFiltered is a role's list with a filter: its total is the role's
// count while unfiltered, else the list's own (?total=true).
function useFiltered(path, query, cursorOf, deps, enabled, count, tick) {
  const [find, setFind] = useState('');
  const prefix = useDebounced(find);
  const counted = !!prefix || count === null;
  const p = usePaged((after) => (counted ? getCounted(path, { ...query, limit: PAGE, after, prefix })
    : get(path, { ...query, limit: PAGE, after })), cursorOf, [...deps, prefix], enabled, PAGE, tick);
  const total = counted ? p.total : count;
  return { p, find, setFind, prefix, total };
}

const shownTotal = (f) => (f.total !== null && f.total !== undefined ? ' (' + fmt(f.total) + (f.prefix ? ' starting with “' + f.prefix + '”' : '') + ')' : '');

function Grants({ role, tick, changed, ok, total }) {
  const f = useFiltered('role_permissions/' + seg(role), {}, (x) => x.name, [role], ok, total, tick);
  const path = (name) => 'permission/' + seg(role) + '/' + seg(name);
  return html`<section aria-labelledby="grants-h">
    <h2 id="grants-h" tabindex="-1">Permissions granted to ${role}${shownTotal(f)}</h2>
    <${AddForm} id="grant-name" label="Permission" button="Grant" owner="grants" list=${PERMS} note=${(v) => unseen('perms', v)} add=${async (name) => {
      await call('POST', path(name));
      changed();
      return 'Granted ' + name + ' to ' + role + '.';
    }} />
    <${Status} owner="grants" />
    <${Search} id="find-grant" label="Find grants" value=${f.find} onInput=${f.setFind} list=${PERMS} />
    ${ok && html`<${List} p=${f.p} total=${f.total} label="Granted permissions" id="grants-list"
      empty=${f.prefix ? 'No grant starts with “' + f.prefix + '”.' : 'No permissions granted directly.'} render=${(x) => html`
      <li key=${x.name} class=${x.held === false ? 'row outside' : 'row'}><a href=${href('whocan', x.name)}>${x.name}</a>
        <${Bounds} x=${x} />
        <${RemoveButton} owner="grants" heading="grants-h" label=${'Remove permission ' + x.name} remove=${async () => {
          await call('DELETE', path(x.name));
          changed();
          return 'Removed ' + x.name + ' from ' + role + '.';
        }} /></li>`} />`}
  </section>`;
}

function Parents({ role, tick, changed, ok, total }) {
  const f = useFiltered('role/' + seg(role) + '/inherits', {}, (x) => x.role, [role], ok, total, tick);
  const path = (parent) => 'role/' + seg(role) + '/inherits/' + seg(parent);
  return html`<section aria-labelledby="parents-h">
    <h2 id="parents-h" tabindex="-1">${role} inherits from${shownTotal(f)}</h2>
    <${AddForm} id="parent-name" label="Parent role" button="Inherit" owner="parents" list=${ROLES} note=${(v) => unseen('roles', v)} add=${async (parent) => {
      await call('POST', path(parent));
      changed();
      return role + ' now inherits from ' + parent + '.';
    }} />
    <${Status} owner="parents" />
    <${Search} id="find-parent" label="Find parents" value=${f.find} onInput=${f.setFind} list=${ROLES} />
    ${ok && html`<${List} p=${f.p} total=${f.total} label="Parent roles" id="parents-list"
      empty=${f.prefix ? 'No parent starts with “' + f.prefix + '”.' : 'Inherits from no role.'} render=${(x) => html`
      <li key=${x.role} class="row"><a href=${href('role', x.role)}>${x.role}</a>
        <${RemoveButton} owner="parents" heading="parents-h" label=${'Remove parent ' + x.role + ' (stop inheriting from it)'} remove=${async () => {
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
  const f = useFiltered('role/' + seg(role) + '/inherited_by', {}, (x) => x.role, [role], ok && open && count > 0, count, tick);
  return html`<${Fold} id="children" title=${'Roles inheriting from ' + role + ' (' + fmt(count) + ')'} onToggle=${setOpen}>
    ${count === 0 ? html`<p class="empty" id="children-list">None.</p>` : html`
      <${Search} id="find-child" label="Find roles inheriting" value=${f.find} onInput=${f.setFind} list=${ROLES} />
      <${List} p=${f.p} total=${f.total} label="Roles inheriting from it" id="children-list" empty="None." render=${(x) => html`
      <li key=${x.role} class="row"><a href=${href('role', x.role)}>${x.role}</a></li>`} />`}
  <//>`;
}

// Effective lists a page of the role's effective permissions once
// unfolded (GET /api/role_permissions/{role}?effective=true, counted). A
// role that inherits nothing holds only its own grants; otherwise "Where
// from?" asks GET /api/permission/{role}/{name}?explain=true for the
// chain of roles to the one granted it, anew after every change.
function Effective({ role, tick, ok, inherits }) {
  const [open, setOpen] = useState(false);
  const f = useFiltered('role_permissions/' + seg(role), { effective: 'true' }, (x) => x.name, [role], ok && open, null, tick);
  return html`<${Fold} id="effective" title=${'Effective permissions of ' + role + (open ? shownTotal(f) : '')} onToggle=${setOpen}>
    <${Search} id="find-effective" label="Find effective permissions" value=${f.find} onInput=${f.setFind} list=${PERMS} />
    <${List} p=${f.p} total=${f.total} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${(x) => html`
      <li key=${x.name + '/' + tick} class="row wrap"><span class="name">${x.name}</span>
        ${inherits ? html`<${WhereFrom} role=${role} name=${x.name} />` : html`<span class="src">granted directly</span>`}</li>`} />
  <//>`;
}

// WhereFrom keeps its button (and so the focus) and says the answer
// beside it; the row is new after every change, so no answer outlives one.
function WhereFrom({ role, name }) {
  const [text, setText] = useState('');
  const ask = async () => {
    setText('…');
    try {
      const r = await get('permission/' + seg(role) + '/' + seg(name), { explain: 'true' });
      const chain = r.chain || [];
      setText(!r.result ? 'no longer held' : chain.length <= 1 ? 'granted directly'
        : 'inherited from ' + chain[chain.length - 1] + ' (' + chain.join(' → ') + ')');
    } catch (e) {
      setText(e.message);
    }
  };
  return html`<button type="button" aria-label=${'Where from? ' + name} onClick=${ask}>Where from?</button>
    ${text && html`<span class="src" role="status">${text}</span>`}`;
}

// Members lists the global members, or with a scope shown the members in
// that scope, global ones included: each row says which it is, and its
// Remove removes that very membership.
function Members({ role, tick, changed, ok, total }) {
  const [scope, setScope] = useField('member-scope');
  const [shown, setShown] = useState('');
  const f = useFiltered('members/' + seg(role), { scope: shown }, (x) => x.user, [role, shown], ok, shown ? null : total, tick);
  const path = (user) => 'membership/' + seg(user) + '/' + seg(role);
  const where = (s) => s ? ' of ' + role + ' in scope ' + s : ' global member of ' + role;
  return html`<section aria-labelledby="members-h">
    <h2 id="members-h" tabindex="-1">Members of ${role}${shownTotal(f)}</h2>
    <${AddForm} id="member-user" label="User" button="Add member" owner="members" list=${USERS} note=${(v) => useUnknownUser(v, tick)} add=${async (user) => {
      await call('POST', path(user), { query: { scope: scope.trim() } });
      changed();
      return user + ' is now a' + (scope.trim() ? ' member' : '') + where(scope.trim()) + '.';
    }} extra=${html`<${Field} id="member-scope" label="Scope" value=${scope} onInput=${setScope}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <${Status} owner="members" />
    <div class="inline">
      <p class="hint" id="members-shown">Showing ${shown ? 'members in scope “' + shown + '” (global ones included)' : 'global members'}.</p>
      <button type="button" id="show-scope" onClick=${() => setShown(scope.trim())}>${scope.trim() ? 'Show members in scope “' + scope.trim() + '”' : 'Show global members'}</button>
    </div>
    <${Search} id="find-member" label="Find members" value=${f.find} onInput=${f.setFind} list=${USERS} />
    ${ok && html`<${List} p=${f.p} label="Members" id="members-list" total=${f.total}
      empty=${f.prefix ? 'No member starts with “' + f.prefix + '”.' : 'No members.'} render=${(x) => html`
      <li key=${x.user + '/' + (x.scope || '')} class=${x.held === false ? 'row outside' : 'row'}><a href=${href('user', x.user)}>${x.user}</a>
        <span class=${x.scope ? 'scope' : 'scope global'}>${x.scope ? 'in scope ' + x.scope : 'global'}</span>
        <${Bounds} x=${x} />
        <${RemoveButton} owner="members" heading="members-h" label=${'Remove ' + x.user + (x.scope ? ' from scope ' + x.scope : ' (global member)')}
          remove=${async () => {
            const r = await call('DELETE', path(x.user), { query: { scope: x.scope || undefined } });
            changed();
            return r.deleted ? x.user + ' is no longer a' + (x.scope ? ' member' : '') + where(x.scope) + '.'
              : x.user + ' was already not a' + (x.scope ? ' member' : '') + where(x.scope) + '.';
          }} /></li>`} />`}
  </section>`;
}
