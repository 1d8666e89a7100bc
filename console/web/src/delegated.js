// A delegated admin's page (rolegate.members without rolegate.admin or
// rolegate.read): for each scope where she holds rolegate.members, the
// roles she may hand out there (GET /api/whoami says which), their
// members in that scope, and a form to add one. Nothing else is shown:
// the rest of the admin API would answer her 403.
import { call, get, seg, natural } from './api.js';
import { html, useState, usePaged, List, Field, Status, useAction, PAGE, USERS } from './ui.js';

export function DelegatedPage({ me }) {
  return html`${[...me.members].sort((a, b) => natural(a.scope, b.scope)).map((d) => html`<${Delegation} key=${d.scope} d=${d} />`)}`;
}

const where = (scope) => (scope ? 'in scope ' + scope : 'globally');

function Delegation({ d }) {
  const [tick, setTick] = useState(0);
  const [user, setUser] = useState('');
  const [role, setRole] = useState(d.roles[0] || '');
  const id = 'd-' + (d.scope || 'global').replace(/[^A-Za-z0-9_-]/g, '_');
  const a = useAction(id);
  const add = (e) => {
    e.preventDefault();
    a.run(async () => {
      await call('POST', 'membership/' + seg(user) + '/' + seg(role), { query: { scope: d.scope } });
      setUser('');
      setTick((t) => t + 1);
      return user + ' is now a member of ' + role + ' ' + where(d.scope) + '.';
    });
  };
  const heading = d.scope ? 'Scope ' + d.scope : 'Every scope (global)';
  return html`<section aria-labelledby=${id + '-h'}>
    <h2 id=${id + '-h'}>${heading}</h2>
    ${d.roles.length === 0 ? html`<p>You hold rolegate.members ${where(d.scope)}, but no role whose every permission you hold there.</p>` : html`
    <form class="inline" onSubmit=${add}>
      <${Field} id=${id + '-user'} label="User" value=${user} onInput=${setUser} required list=${USERS} />
      <div class="field">
        <label for=${id + '-role'}>Role</label>
        <select id=${id + '-role'} value=${role} onChange=${(e) => setRole(e.currentTarget.value)}>
          ${[...d.roles].sort(natural).map((r) => html`<option value=${r}>${r}</option>`)}
        </select>
      </div>
      <button type="submit" disabled=${a.busy}>Add member</button>
    </form>`}
    <${Status} owner=${id} />
    ${d.roles.map((r) => html`<${Members} key=${r + '/' + tick} role=${r} scope=${d.scope} owner=${id} />`)}
  </section>`;
}

// Members lists the role's members in the scope (those held elsewhere are
// not hers to change) with a button to remove each.
function Members({ role, scope, owner }) {
  const [tick, setTick] = useState(0);
  const p = usePaged((after) => get('members/' + seg(role), { scope: scope || undefined, limit: PAGE, after }),
    (m) => (typeof m === 'string' ? m : m.user), [role, scope, tick]);
  const rm = useAction(owner);
  const items = p.items.filter((m) => (m.scope || '') === scope);
  return html`<div class="delegated-role">
    <h3>${role}</h3>
    <${List} p=${{ ...p, items }} label=${'Members of ' + role} id=${'members-' + role}
      empty=${'No member of ' + role + ' ' + where(scope) + '.'} render=${(m) => html`
      <li key=${m.user} class="row">
        <span class="grow">${m.user}</span>
        <button type="button" class="danger" aria-label=${'Remove ' + m.user + ' from ' + role + ' ' + where(scope)}
          onClick=${() => rm.run(async () => {
            await call('DELETE', 'membership/' + seg(m.user) + '/' + seg(role), { query: { scope } });
            setTick((t) => t + 1);
            return m.user + ' is no longer a member of ' + role + ' ' + where(scope) + '.';
          })}>Remove</button>
      </li>`} />
  </div>`;
}
