// Names already seen in the API's answers, offered as suggestions in the
// name fields (one <datalist> per kind), so that a typo shows before it
// becomes a new permission or a membership of nobody. Only what this tab
// has been shown is known: nothing is fetched for the suggestions alone.

const MAX = 5000; // per kind: a bound on the tab's memory

export const known = { roles: new Set(), perms: new Set(), users: new Set() };
const subs = new Set();
let pending = false;

function add(set, v) {
  if (typeof v !== 'string' || v === '' || set.has(v)) return false;
  if (set.size >= MAX) set.delete(set.values().next().value);
  set.add(v);
  return true;
}

// learn takes the names of one answer's data: entries with "role" are
// roles, with "name" permissions, with "user" users (as in every list of
// the REST API and in GET /api/role/{role}).
export function learn(data) {
  let changed = false;
  for (const x of Array.isArray(data) ? data : [data]) {
    if (!x || typeof x !== 'object') continue;
    changed = add(known.roles, x.role) | changed;
    changed = add(known.perms, x.name) | changed;
    changed = add(known.users, x.user) | changed;
  }
  if (changed && !pending) {
    pending = true;
    queueMicrotask(() => { pending = false; subs.forEach((f) => f()); });
  }
}

// forget drops a name that is gone (a deleted role).
export function forget(kind, name) {
  if (known[kind].delete(name)) subs.forEach((f) => f());
}

export function subscribe(f) {
  subs.add(f);
  return () => subs.delete(f);
}
